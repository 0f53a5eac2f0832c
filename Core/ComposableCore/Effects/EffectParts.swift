import ComposableSharing

/// The parts of a merge or a concatenation: the first `count` effects of a buffer that may hold
/// more.
///
/// Folding effects one at a time (`effect = effect.merge(with: next)`, over a list's elements)
/// copied every part so far for each part added, so it took time quadratic in their number:
/// 845 ms for 10,000 in a release build. Here the value made last adds to its buffer in
/// place when there is room; the values made before it share the buffer but read only their own
/// first `count` parts, which never change, so each is still a value.
@usableFromInline
struct EffectParts<Action>: RandomAccessCollection, @unchecked Sendable {
  // Unchecked: the parts a value reads were written before the value was made, and are not
  // written again; see `Storage`.
  @usableFromInline typealias Indices = Range<Int>

  @usableFromInline let storage: Storage
  @usableFromInline let count: Int

  /// The parts of a collection, in a buffer with room for as many again.
  init(_ parts: some Collection<Effect<Action>>) {
    let count = parts.count
    storage = Storage(capacity: Self.capacity(for: count))
    storage.claim(count) { $0.initializeAll(from: parts) }
    self.count = count
  }

  /// The parts of `source`, each transformed.
  init<Source>(_ source: EffectParts<Source>, transform: (Effect<Source>) -> Effect<Action>) {
    self = withoutActuallyEscaping(transform) { Self(source.lazy.map($0)) }
  }

  private init(storage: Storage, count: Int) {
    self.storage = storage
    self.count = count
  }

  @inlinable var startIndex: Int { 0 }
  @inlinable var endIndex: Int { count }

  @inlinable
  subscript(position: Int) -> Effect<Action> {
    precondition(position >= 0 && position < count, "Index out of range")
    return storage.elements[position]
  }

  /// These parts followed by `more`: added in place when no value has added to the buffer since
  /// this one was made and there is room, otherwise copied into a new buffer.
  func appending(contentsOf more: some Collection<Effect<Action>>) -> Self {
    let added = more.count
    let inPlace = storage.claim(added, after: count) { $0.initializeAll(from: more) }
    if inPlace { return Self(storage: storage, count: count + added) }
    let copy = Storage(capacity: Self.capacity(for: count + added))
    copy.claim(count + added) { slots in
      UnsafeMutableBufferPointer(rebasing: slots[..<count]).initializeAll(from: self)
      UnsafeMutableBufferPointer(rebasing: slots[count...]).initializeAll(from: more)
    }
    return Self(storage: copy, count: count + added)
  }

  private static func capacity(for count: Int) -> Int {
    Swift.max(4, count * 2)
  }

  /// A buffer of parts, each written once, by the value that claims its slot, and read only by
  /// values made after that.
  @usableFromInline
  final class Storage: @unchecked Sendable {
    @usableFromInline let elements: UnsafeMutablePointer<Effect<Action>>
    let capacity: Int
    /// How many slots from the start have been claimed and written.
    private let claimed = Locked(0)

    init(capacity: Int) {
      self.capacity = capacity
      elements = .allocate(capacity: capacity)
    }

    deinit {
      elements.deinitialize(count: claimed.withLock { $0 })
      elements.deallocate()
    }

    /// Writes the `count` slots after the first `offset` with `write`, if they are the next ones
    /// free and there is room for them; returns whether it did.
    @discardableResult
    func claim(
      _ count: Int, after offset: Int = 0,
      _ write: (UnsafeMutableBufferPointer<Effect<Action>>) -> Void
    ) -> Bool {
      claimed.withLock { claimed in
        guard claimed == offset, offset + count <= capacity else { return false }
        write(UnsafeMutableBufferPointer(start: elements + offset, count: count))
        claimed += count
        return true
      }
    }
  }
}

extension UnsafeMutableBufferPointer {
  /// Initialises every element from `source`, which must have exactly as many: a slot left
  /// uninitialised would be deinitialised with the buffer.
  fileprivate func initializeAll(from source: some Collection<Element>) {
    precondition(initialize(fromContentsOf: source) == endIndex, "Fewer parts than counted")
  }
}
