import IssueReporting
import Synchronization

/// Where a shared value lives and how it is read: `.inMemory("key")`, `.fileStorage(url)`,
/// `.appStorage("name")`, or a strategy of your own. Two `@SharedReader`s or `@Shared`s with
/// equal keys hold one value.
public protocol SharedReaderKey<Value>: Sendable {
  /// The shared value.
  associatedtype Value: Sendable
  /// What makes two keys the same storage; a hashable key is its own id.
  associatedtype ID: Hashable = Self

  /// Equal ids share one value.
  var id: ID { get }

  /// Reads the stored value and hands it to `continuation`: a value, "nothing stored" (the
  /// holder keeps its initial value) or an error. It may resume later, from any thread.
  func load(context: LoadContext<Value>, continuation: LoadContinuation<Value>)

  /// Hands `subscriber` each value stored from outside this process's holders (another process
  /// writing the file) until the subscription is cancelled or released.
  func subscribe(
    context: LoadContext<Value>,
    subscriber: SharedSubscriber<Value>
  ) -> SharedSubscription
}

extension SharedReaderKey where ID == Self {
  /// The key itself tells keys apart.
  public var id: ID { self }
}

/// A key whose value can also be written: what `@Shared` needs.
public protocol SharedKey<Value>: SharedReaderKey {
  /// Stores `value` and resumes `continuation` when it is stored, or with why it could not be.
  func save(_ value: Value, context: SaveContext, continuation: SaveContinuation)

  /// How long to gather changes before writing them, so a burst of edits is one write; `nil`
  /// writes every change at once.
  var saveInterval: Duration? { get }
}

extension SharedKey {
  /// Every change is written at once.
  public var saveInterval: Duration? { nil }
}

/// Why a key is asked to load: to give a new holder its first value, or because someone called
/// `load()`.
public enum LoadContext<Value> {
  /// A holder is being made, with this value to use when nothing is stored.
  case initialValue(Value)
  /// `$value.load()` or `require:` asked for the stored value.
  case userInitiated

  /// The holder's initial value, when there is one.
  public var initialValue: Value? {
    guard case .initialValue(let value) = self else { return nil }
    return value
  }
}

extension LoadContext: Sendable where Value: Sendable {}
extension LoadContext: Equatable where Value: Equatable {}
extension LoadContext: Hashable where Value: Hashable {}

/// Why a key is asked to save: the value changed, or someone called `save()`.
public enum SaveContext: Hashable, Sendable {
  /// The value was changed by `withLock`.
  case didSet
  /// `$value.save()` asked for a write.
  case userInitiated
}

/// How a key hands back what it loaded. Resume it exactly once: one never resumed is reported
/// when it is released, and whoever waits on it goes on as if nothing was stored.
public struct LoadContinuation<Value>: Sendable {
  private let once: ResumeOnce<Value>

  /// A continuation that hands each result to `callback`; `description` names the key in reports.
  public init(
    _ description: @autoclosure @escaping @Sendable () -> String = "",
    callback: @escaping @Sendable (Result<Value?, any Error>) -> Void
  ) {
    once = ResumeOnce(description: description, callback: callback)
  }

  /// The stored value.
  public func resume(returning value: Value) {
    resume(with: .success(value))
  }

  /// Why the value could not be loaded.
  public func resume(throwing error: any Error) {
    resume(with: .failure(error))
  }

  /// Nothing is stored: the holder keeps its initial value.
  public func resumeReturningInitialValue() {
    resume(with: .success(nil))
  }

  /// A value, `nil` for "nothing stored", or an error.
  public func resume(with result: Result<Value?, any Error>) {
    once.resume(with: result)
  }
}

/// How a key hands back whether a save succeeded. Resume it exactly once.
public struct SaveContinuation: Sendable {
  private let once: ResumeOnce<Never>

  /// A continuation that hands its result to `callback`; `description` names the key in reports.
  public init(
    _ description: @autoclosure @escaping @Sendable () -> String = "",
    callback: @escaping @Sendable (Result<Never?, any Error>) -> Void
  ) {
    once = ResumeOnce(description: description, callback: callback)
  }

  /// The value is stored.
  public func resume() {
    resume(with: .success(()))
  }

  /// Why the value could not be stored.
  public func resume(throwing error: any Error) {
    resume(with: .failure(error))
  }

  /// Success or why not.
  public func resume(with result: Result<Void, any Error>) {
    once.resume(with: result.map { nil })
  }
}

/// Delivers one result, reports a second, and on release reports a continuation never resumed
/// and resumes it with "nothing stored", so no one waits forever.
private final class ResumeOnce<Value>: @unchecked Sendable {
  // Unchecked: `callback` is `@Sendable` and immutable; `resumed` is atomic. An atomic rather
  // than a lock: every change to a saved value makes one of these.
  private let callback: @Sendable (Result<Value?, any Error>) -> Void
  private let description: @Sendable () -> String
  private let resumed = Atomic(false)

  init(
    description: @escaping @Sendable () -> String,
    callback: @escaping @Sendable (Result<Value?, any Error>) -> Void
  ) {
    self.callback = callback
    self.description = description
  }

  private var name: String {
    let description = description()
    return description.isEmpty ? "A shared key" : "'\(description)'"
  }

  /// Whether this call is the first to resume.
  private func claim() -> Bool {
    resumed.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing)
      .exchanged
  }

  func resume(with result: Result<Value?, any Error>) {
    guard claim() else {
      reportIssue("\(name) tried to resume its continuation more than once.")
      return
    }
    callback(result)
  }

  deinit {
    guard claim() else { return }
    reportIssue(
      """
      \(name) leaked its continuation without one of its resume methods being invoked. This \
      will cause tasks waiting on it to resume immediately.
      """
    )
    callback(.success(nil))
  }
}

/// How a key hands its holders values stored from outside, and tells them when it is loading.
public struct SharedSubscriber<Value>: Sendable {
  /// Takes a result, with the holders' change mark from before it was read when it has one.
  let deliver: @Sendable (Result<Value?, any Error>, _ readSince: UInt64?) -> Void
  let onLoading: (@Sendable (Bool) -> Void)?
  /// The holders' count of changes: a value read before a change made here is older than it.
  let mark: (@Sendable () -> UInt64)?

  /// A subscriber that hands each result to `callback` and loading changes to `onLoading`.
  public init(
    callback: @escaping @Sendable (Result<Value?, any Error>) -> Void,
    onLoading: (@Sendable (Bool) -> Void)? = nil
  ) {
    self.init(deliver: { result, _ in callback(result) }, onLoading: onLoading, mark: nil)
  }

  init(
    deliver: @escaping @Sendable (Result<Value?, any Error>, UInt64?) -> Void,
    onLoading: (@Sendable (Bool) -> Void)?,
    mark: (@Sendable () -> UInt64)?
  ) {
    self.deliver = deliver
    self.onLoading = onLoading
    self.mark = mark
  }

  /// The holders' change mark now, to hand back with a value about to be read.
  func changeMark() -> UInt64? {
    mark?()
  }

  /// A value read after `mark` was taken: the holders drop it if they changed since and have
  /// not written that change yet, as the change is the newer.
  func yield(_ value: Value, readSince mark: UInt64?) {
    deliver(.success(value), mark)
  }

  /// A new stored value.
  public func yield(_ value: Value) {
    yield(with: .success(value))
  }

  /// The stored value is gone: the holders go back to their initial value.
  public func yieldReturningInitialValue() {
    yield(with: .success(nil))
  }

  /// The stored value could not be read.
  public func yield(throwing error: any Error) {
    yield(with: .failure(error))
  }

  /// A value, `nil` for "nothing stored", or an error.
  public func yield(with result: Result<Value?, any Error>) {
    deliver(result, nil)
  }

  /// Tells the holders whether a load is under way (`isLoading`).
  public func yieldLoading(_ isLoading: Bool = true) {
    onLoading?(isLoading)
  }
}

/// An active subscription to a key's outside changes; cancelling or releasing it ends it.
public struct SharedSubscription: Sendable {
  private let box: CancelOnce

  /// A subscription that calls `cancel` once, when cancelled or released.
  public init(_ cancel: @escaping @Sendable () -> Void) {
    box = CancelOnce(cancel)
  }

  /// Ends the subscription now.
  public func cancel() {
    box.cancel()
  }

  private final class CancelOnce: Sendable {
    private let onCancel: Locked<(@Sendable () -> Void)?>

    init(_ onCancel: @escaping @Sendable () -> Void) {
      self.onCancel = Locked(onCancel)
    }

    func cancel() {
      onCancel.withLock { $0.take() }?()
    }

    deinit {
      cancel()
    }
  }
}

extension SharedReaderKey {
  /// This key with a default value, so holders need not give one: `Self[.inMemory("isOn"),
  /// default: false]` inside `extension SharedReaderKey where Self == InMemoryKey<Bool>.Default`.
  public typealias Default = _SharedKeyDefault<Self>
}

/// A key with the value its holders start with when nothing is stored: spelled `Key.Default`.
public struct _SharedKeyDefault<Base: SharedReaderKey>: SharedReaderKey {
  /// The key.
  public let base: Base
  private let defaultValue: @Sendable () -> Base.Value

  /// The key's id: a key with a default shares its value with the same key without one.
  public var id: Base.ID { base.id }

  /// What holders start with when nothing is stored.
  public var initialValue: Base.Value { defaultValue() }

  /// `key`, with `value` as its default.
  public static subscript(
    _ key: Base,
    default value: @autoclosure @escaping @Sendable () -> Base.Value
  ) -> Self {
    Self(base: key, defaultValue: value)
  }

  private init(base: Base, defaultValue: @escaping @Sendable () -> Base.Value) {
    self.base = base
    self.defaultValue = defaultValue
  }

  /// Loads through the key.
  public func load(context: LoadContext<Base.Value>, continuation: LoadContinuation<Base.Value>) {
    base.load(context: context, continuation: continuation)
  }

  /// Subscribes through the key.
  public func subscribe(
    context: LoadContext<Base.Value>, subscriber: SharedSubscriber<Base.Value>
  ) -> SharedSubscription {
    base.subscribe(context: context, subscriber: subscriber)
  }
}

extension _SharedKeyDefault: SharedKey where Base: SharedKey {
  /// Saves through the key.
  public func save(_ value: Base.Value, context: SaveContext, continuation: SaveContinuation) {
    base.save(value, context: context, continuation: continuation)
  }

  /// The key's save interval.
  public var saveInterval: Duration? { base.saveInterval }
}

extension _SharedKeyDefault: CustomStringConvertible {
  /// `Key.Default[key, default: value]`.
  public var description: String {
    "\(Base.self).Default[\(base), default: \(defaultValue())]"
  }
}
