import ComposableCore
import Foundation
import OrdersClient

/// A paginated list of orders with pull-to-refresh, load-more, filters, automatic retry with
/// backoff for transient failures, and a cached first page shown while a fresh one loads.
@Reducer
public struct RefreshableList: Sendable {
  /// The orders screen.
  @ObservableState
  public struct State: Equatable {
    /// Where the list is in its life.
    public var pageState: PageState<OrderList>
    /// Which orders show.
    public var selectedFilter: OrderFilter
    /// Whether the filter menu is open.
    public var showFilterDropdown: Bool
    /// A failed refresh (or revalidation) while older items stay visible: the error banner.
    public var refreshErrorInfo: ErrorInfo?
    /// Whether the items showing came from the cache and a fresh page is on its way.
    public var isStale: Bool
    /// An automatic retry that is waiting for its delay.
    public var pendingRetry: PendingRetry?
    /// The request the list is waiting for; any other response is a late one and is ignored.
    public var inFlight: PageLoad?
    /// What was showing when a refresh started, shown again if the refresh fails.
    public var contentBeforeRefresh: OrderList?
    /// Orders per page.
    public var perPage: Int
    /// The demo's switches: how the requests made from now on misbehave.
    public var simulation: Simulation

    /// A list that has not loaded yet.
    public init(
      pageState: PageState<OrderList> = .idle,
      selectedFilter: OrderFilter = .all,
      showFilterDropdown: Bool = false,
      refreshErrorInfo: ErrorInfo? = nil,
      isStale: Bool = false,
      pendingRetry: PendingRetry? = nil,
      inFlight: PageLoad? = nil,
      contentBeforeRefresh: OrderList? = nil,
      perPage: Int = 10,
      simulation: Simulation = .none
    ) {
      self.pageState = pageState
      self.selectedFilter = selectedFilter
      self.showFilterDropdown = showFilterDropdown
      self.refreshErrorInfo = refreshErrorInfo
      self.isStale = isStale
      self.pendingRetry = pendingRetry
      self.inFlight = inFlight
      self.contentBeforeRefresh = contentBeforeRefresh
      self.perPage = perPage
      self.simulation = simulation
    }

    /// The orders on screen: the loaded ones, or those kept visible during a refresh.
    public var visibleOrders: IdentifiedArrayOf<Order> {
      (pageState.content ?? contentBeforeRefresh)?.items ?? []
    }

    /// Whether a full-screen loading overlay covers the list: while a page is on its way,
    /// unless the cached one already shows.
    public var showLoadingOverlay: Bool { inFlight != nil && !isStale }

  }

  /// The loaded orders.
  public struct OrderList: Equatable, Sendable {
    /// The orders of every loaded page, in order.
    public var items: IdentifiedArrayOf<Order>
    /// The last loaded page.
    public var currentPage: Int
    /// Whether another page follows.
    public var hasMorePages: Bool

    /// A list with the given fields.
    public init(items: IdentifiedArrayOf<Order>, currentPage: Int, hasMorePages: Bool) {
      self.items = items
      self.currentPage = currentPage
      self.hasMorePages = hasMorePages
    }

    /// The list of one first page.
    public init(_ page: OrdersPage) {
      self.init(
        items: IdentifiedArray(page.items, uniquingIDsWith: { first, _ in first }),
        currentPage: page.page,
        hasMorePages: page.hasMorePages
      )
    }

    var loadMoreState: PageState<OrderList>.LoadMoreState { hasMorePages ? .idle : .noMore }
  }

  /// One request of the list: what it is for, the page, and which automatic attempt it is.
  public struct PageLoad: Equatable, Codable, Sendable {
    /// First load, refresh, or next page.
    public var kind: PageState<OrderList>.LoadingType
    /// The page asked for.
    public var request: PageRequest
    /// 0 for the first try, then 1, 2, 3 for automatic retries.
    public var attempt: Int

    /// A load.
    public init(kind: PageState<OrderList>.LoadingType, request: PageRequest, attempt: Int = 0) {
      self.kind = kind
      self.request = request
      self.attempt = attempt
    }
  }

  /// An automatic retry waiting for its delay, which the list shows ("retrying in 2 s").
  public struct PendingRetry: Equatable, Sendable {
    /// Which retry this is: 1, 2 or 3.
    public var attempt: Int
    /// How long it waits, backoff plus jitter.
    public var delay: Duration

    /// A pending retry.
    public init(attempt: Int, delay: Duration) {
      self.attempt = attempt
      self.delay = delay
    }
  }

  /// What happens on the orders screen.
  public enum Action: Equatable, Codable {
    /// The screen appeared: loads the first page, once.
    case onAppear
    /// The user pulled to refresh: reloads from the first page.
    case pullToRefresh
    /// The user reached the end of the list: loads the next page.
    case loadMore
    /// A cached page for a first load, shown while the fresh one loads.
    case cachedPageLoaded(PageLoad, OrdersPage)
    /// The answer to a load.
    case pageResponse(PageLoad, Result<OrdersPage, OrdersError>)
    /// An automatic retry's delay is over.
    case retryTimerFired(PageLoad)
    /// The user asked to retry whatever failed.
    case retry
    /// Opens or closes the filter menu.
    case toggleFilterDropdown
    /// Chooses a filter: the list starts over from the first page.
    case selectFilter(OrderFilter)
    /// The demo's switches changed; requests from now on carry them.
    case simulationChanged(Simulation)
  }

  enum CancelID { case request }

  /// The delays before the automatic retries, before jitter.
  public static let retryDelays: [Duration] = [.seconds(1), .seconds(2), .seconds(4)]
  /// The largest jitter added to a retry delay, as a fraction of it.
  public static let maximumJitter = 0.25

  @Dependency(\.continuousClock) var clock
  @Dependency(\.ordersClient) var ordersClient
  @Dependency(\.withRandomNumberGenerator) var withRandomNumberGenerator

  /// A list reducer.
  public init() {}

  /// The list's logic.
  public var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .onAppear:
        guard case .idle = state.pageState else { return .none }
        return startFirstLoad(&state)

      case .pullToRefresh:
        if case .loading = state.pageState { return .none }
        if state.isStale { return .none }
        if let content = state.pageState.content { state.contentBeforeRefresh = content }
        state.pageState = .loading(.refresh)
        state.refreshErrorInfo = nil
        return start(PageLoad(kind: .refresh, request: request(page: 0, state)), &state)

      case .loadMore:
        guard !state.isStale, case .loaded(let content, let footer) = state.pageState,
          content.hasMorePages
        else { return .none }
        switch footer {
        case .idle, .failed: break
        case .loading, .noMore: return .none
        }
        state.pageState = .loaded(content, .loading)
        let load = PageLoad(kind: .loadMore, request: request(page: content.currentPage + 1, state))
        return start(load, &state)

      case .cachedPageLoaded(let load, let page):
        guard load == state.inFlight, case .loading(.initial) = state.pageState else {
          return .none
        }
        state.pageState = .loaded(OrderList(page), OrderList(page).loadMoreState)
        state.isStale = true
        return .none

      case .pageResponse(let load, let result):
        guard load == state.inFlight else { return .none }
        switch result {
        case .success(let page):
          finish(&state)
          state.refreshErrorInfo = nil
          state.isStale = false
          state.contentBeforeRefresh = nil
          switch load.kind {
          case .initial, .refresh:
            let list = OrderList(page)
            state.pageState = .loaded(list, list.loadMoreState)
          case .loadMore:
            guard case .loaded(var list, _) = state.pageState else { return .none }
            for order in page.items where list.items[id: order.id] == nil {
              list.items.append(order)
            }
            list.currentPage = page.page
            list.hasMorePages = page.hasMorePages
            state.pageState = .loaded(list, list.loadMoreState)
          }
          return .none

        case .failure(let error):
          if error.isTransient, load.attempt < Self.retryDelays.count {
            return scheduleRetry(after: load, &state)
          }
          finish(&state)
          let info = ErrorInfo(error)
          switch load.kind {
          case .loadMore:
            if case .loaded(let list, _) = state.pageState {
              state.pageState = .loaded(list, .failed(info))
            }
          case .initial:
            if state.isStale, state.pageState.content != nil {
              // The cached page stays, with a banner: better than a blank screen.
              state.refreshErrorInfo = info
            } else {
              state.pageState = .failed(.initial, info)
            }
          case .refresh:
            if let previous = state.contentBeforeRefresh {
              state.pageState = .loaded(previous, previous.loadMoreState)
              state.refreshErrorInfo = info
              state.contentBeforeRefresh = nil
            } else {
              state.pageState = .failed(.refresh, info)
            }
          }
          return .none
        }

      case .retryTimerFired(let load):
        guard load == state.inFlight else { return .none }
        state.pendingRetry = nil
        return fetch(load, showingCache: false)

      case .retry:
        switch state.pageState {
        case .failed(.initial, _):
          return startFirstLoad(&state, showingCache: false)
        case .failed(.refresh, _):
          return .send(.pullToRefresh)
        case .loaded(_, .failed):
          return .send(.loadMore)
        case .loaded where state.refreshErrorInfo != nil:
          state.isStale = false
          return .send(.pullToRefresh)
        default:
          return .none
        }

      case .toggleFilterDropdown:
        state.showFilterDropdown.toggle()
        return .none

      case .simulationChanged(let simulation):
        state.simulation = simulation
        return .none

      case .selectFilter(let filter):
        state.selectedFilter = filter
        state.showFilterDropdown = false
        state.pageState = .idle
        state.refreshErrorInfo = nil
        state.isStale = false
        state.contentBeforeRefresh = nil
        return startFirstLoad(&state)
      }
    }
  }

  private func request(page: Int, _ state: State) -> PageRequest {
    PageRequest(
      page: page,
      perPage: state.perPage,
      filter: state.selectedFilter,
      simulation: state.simulation
    )
  }

  private func startFirstLoad(_ state: inout State, showingCache: Bool = true) -> Effect<Action> {
    state.pageState = .loading(.initial)
    state.refreshErrorInfo = nil
    state.isStale = false
    return start(
      PageLoad(kind: .initial, request: request(page: 0, state)),
      &state,
      showingCache: showingCache
    )
  }

  /// Starts a load, replacing whatever load was in flight: the list only ever waits for one.
  private func start(_ load: PageLoad, _ state: inout State, showingCache: Bool = false)
    -> Effect<Action>
  {
    state.inFlight = load
    state.pendingRetry = nil
    return fetch(load, showingCache: showingCache)
  }

  private func finish(_ state: inout State) {
    state.inFlight = nil
    state.pendingRetry = nil
  }

  private func fetch(_ load: PageLoad, showingCache: Bool) -> Effect<Action> {
    .run { send in
      if showingCache, let cached = await ordersClient.cachedPage(load.request) {
        await send(.cachedPageLoaded(load, cached))
      }
      let page = try await ordersClient.fetchPage(load.request)
      await send(.pageResponse(load, .success(page)))
    } catch: { error, send in
      await send(.pageResponse(load, .failure(error as? OrdersError ?? .unknown("\(error)"))))
    }
    .cancellable(id: CancelID.request, cancelInFlight: true)
  }

  /// Waits 1 s, 2 s, then 4 s (each plus up to 25 % jitter) before trying the same page again.
  private func scheduleRetry(after load: PageLoad, _ state: inout State) -> Effect<Action> {
    let base = Self.retryDelays[load.attempt]
    let jitter = withRandomNumberGenerator { Double.random(in: 0..<Self.maximumJitter, using: &$0) }
    let delay = base + base * jitter
    let next = PageLoad(kind: load.kind, request: load.request, attempt: load.attempt + 1)
    state.inFlight = next
    state.pendingRetry = PendingRetry(attempt: next.attempt, delay: delay)
    return .run { send in
      try await clock.sleep(for: delay)
      await send(.retryTimerFired(next))
    }
    .cancellable(id: CancelID.request, cancelInFlight: true)
  }
}
