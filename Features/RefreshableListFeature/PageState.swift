import OrdersClient

/// The life of a paginated list: nothing yet, loading, loaded (with the state of the next page),
/// or failed.
public enum PageState<Content: Equatable>: Equatable {
  /// Nothing requested yet.
  case idle
  /// The first page is loading, for the first time or again.
  case loading(LoadingType)
  /// Content is showing; the footer follows `LoadMoreState`.
  case loaded(Content, LoadMoreState)
  /// Loading failed with nothing to show.
  case failed(FailureType, ErrorInfo)

  /// What is loading.
  public enum LoadingType: Codable, Equatable, Sendable {
    /// The first load.
    case initial
    /// A pull to refresh, which restarts from the first page.
    case refresh
    /// The next page. The list keeps showing while it loads, so this appears as
    /// `.loaded(content, .loading)` rather than as a `PageState` of its own.
    case loadMore
  }

  /// The footer of a loaded list.
  public enum LoadMoreState: Equatable, Sendable {
    /// More pages exist; reaching the end loads the next one.
    case idle
    /// The next page is loading.
    case loading
    /// Everything is loaded.
    case noMore
    /// The next page failed; the list stays, with a retry at the bottom.
    case failed(ErrorInfo)
  }

  /// What failed.
  public enum FailureType: Equatable, Sendable {
    /// The first load.
    case initial
    /// A refresh with nothing loaded before it.
    case refresh
  }

  /// The content showing, if any.
  public var content: Content? {
    guard case .loaded(let content, _) = self else { return nil }
    return content
  }

  /// Whether the first page is loading.
  public var isLoading: Bool {
    guard case .loading = self else { return false }
    return true
  }
}

/// A failure as the list shows it.
public struct ErrorInfo: Equatable, Sendable {
  /// Which kind of failure.
  public var type: ErrorType
  /// A sentence for the person using the app.
  public var description: String

  /// An error with a type and a description.
  public init(type: ErrorType, description: String) {
    self.type = type
    self.description = description
  }

  /// The list's view of a client error.
  public init(_ error: OrdersError) {
    switch error {
    case .networkConnection: type = .networkConnection
    case .timeout: type = .timeout
    case .serverError: type = .serverError
    case .parsingError: type = .parsingError
    case .unknown: type = .unknown
    }
    description = error.errorDescription ?? "Something went wrong."
  }
}

/// The kinds of failure the list distinguishes.
public enum ErrorType: Equatable, Sendable {
  /// The server could not be reached.
  case networkConnection
  /// The server did not answer in time.
  case timeout
  /// The server failed.
  case serverError
  /// The answer could not be read.
  case parsingError
  /// Anything else.
  case unknown
}
