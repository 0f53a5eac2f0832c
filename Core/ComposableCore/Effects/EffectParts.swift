import Synchronization

/// The parts of a merge or a concatenation.
///
/// Folding effects one at a time (`effect = effect.merge(with: next)`, over a list's elements)
/// copied every part so far for each part added, so it took time quadratic in their number:
/// over 800 ms for 10,000 in a release build. A fold's parts are now the first `count` slots of a
/// buffer with room to spare, and the value made last adds to it in place; the values made
/// before it share the buffer but read only their own first `count` slots, which never change,
/// so each is still a value. Parts made all at once (`.merge(a, b, c)`) are kept in one
/// allocation that is never added to, as an array's would be, and two parts, the usual merge,
/// are kept in the value itself: the buffer cost an allocation, and releasing it destroyed its
/// parts through the effect's generic metadata, looked up each time (about 700 instructions).
@usableFromInline
struct EffectParts<Action>: RandomAccessCollection, @unchecked Sendable {
  // Unchecked: the parts a value reads were written before the value was made, and are not
  // written again; see `Growable`.
  @usableFromInline typealias Indices = Range<Int>

  @usableFromInline
  enum Buffer {
    case two(Effect<Action>, Effect<Action>)
    case fixed(Fixed)
    case growable(Growable)
  }

  @usableFromInline let buffer: Buffer
  @usableFromInline let count: Int

  /// The parts `fixed` was made for, once all are written.
  @inlinable
  init(_ fixed: Fixed) {
    let header = fixed.header
    precondition(header.written == header.count, "Fewer parts than counted")
    count = header.count
    buffer = .fixed(fixed)
  }

  /// Two parts.
  @inlinable
  init(_ first: Effect<Action>, _ second: Effect<Action>) {
    buffer = .two(first, second)
    count = 2
  }

  /// The parts of `source`, each transformed.
  init<Source>(_ source: EffectParts<Source>, transform: (Effect<Source>) -> Effect<Action>) {
    if source.count == 2 {
      self.init(transform(source[0]), transform(source[1]))
      return
    }
    let fixed = Fixed.make(count: source.count)
    for part in source { fixed.append(transform(part)) }
    self.init(fixed)
  }

  @inlinable
  init(_ growable: Growable, count: Int) {
    buffer = .growable(growable)
    self.count = count
  }

  @inlinable var startIndex: Int { 0 }
  @inlinable var endIndex: Int { count }

  @inlinable
  subscript(position: Int) -> Effect<Action> {
    precondition(position >= 0 && position < count, "Index out of range")
    switch buffer {
    case .two(let first, let second): return position == 0 ? first : second
    case .fixed(let fixed): return fixed.withUnsafeMutablePointerToElements { $0[position] }
    case .growable(let growable): return growable.elements[position]
    }
  }

  /// These parts followed by `more`: added in place when this value's buffer is a fold's, no
  /// value has added to it since this one was made, and there is room; otherwise copied into a
  /// new fold's buffer with room for as many again.
  @inlinable
  func appending(contentsOf more: some Collection<Effect<Action>>) -> Self {
    let added = more.count
    if case .growable(let growable) = buffer,
      growable.write(added, after: count, { $0.initialize(fromContentsOf: more) })
    {
      return Self(growable, count: count + added)
    }
    let copy = Growable(capacity: 2 * (count + added))
    copy.write(count + added, after: 0) { slots in
      let end = UnsafeMutableBufferPointer(rebasing: slots[..<count])
        .initialize(fromContentsOf: self)
      return end
        + UnsafeMutableBufferPointer(rebasing: slots[count...]).initialize(fromContentsOf: more)
    }
    return Self(copy, count: count + added)
  }

  /// Runs `fill` on `slots`, checking that it wrote every one: a slot counted but not written
  /// would be deinitialised with its buffer.
  @inlinable
  static func filled(
    _ slots: UnsafeMutableBufferPointer<Effect<Action>>,
    _ fill: (UnsafeMutableBufferPointer<Effect<Action>>) -> Int
  ) -> Int {
    let written = fill(slots)
    precondition(written == slots.count, "Fewer parts than counted")
    return written
  }

  /// Parts made all at once, in one allocation; the header says how many are written, of how
  /// many it is made for.
  ///
  /// Written one part at a time, not through a closure given the whole source: a closure
  /// capturing a merge's array made the compiler keep on the heap the array of a variadic
  /// `.merge(a, b, c)`, which it had kept on the stack.
  @usableFromInline
  final class Fixed: ManagedBuffer<(written: Int, count: Int), Effect<Action>> {
    /// A buffer for `count` parts, none written yet.
    @inlinable
    static func make(count: Int) -> Fixed {
      // `create` makes an instance of the class it is called on.
      unsafeDowncast(
        create(minimumCapacity: count) { _ in (written: 0, count: count) }, to: Fixed.self)
    }

    /// Writes the next part.
    @inlinable
    func append(_ part: Effect<Action>) {
      withUnsafeMutablePointers { header, elements in
        precondition(header.pointee.written < header.pointee.count, "More parts than counted")
        (elements + header.pointee.written).initialize(to: part)
        header.pointee.written += 1
      }
    }

    deinit {
      _ = withUnsafeMutablePointers { header, elements in
        elements.deinitialize(count: header.pointee.written)
      }
    }
  }

  /// A fold's parts: slots that are claimed, then written once by the claimer, and read only by
  /// values made after that.
  @usableFromInline
  final class Growable {
    @usableFromInline let elements: UnsafeMutablePointer<Effect<Action>>
    @usableFromInline let capacity: Int
    // Atomic: effects are `Sendable`, so two threads may add to one fold at once; one claims
    // the next slots, and the other copies.
    /// How many slots from the start have been claimed.
    @usableFromInline let claimed = Atomic<Int>(0)

    @inlinable
    init(capacity: Int) {
      self.capacity = capacity
      elements = .allocate(capacity: capacity)
    }

    deinit {
      // Every claimed slot was written: its claimer held this buffer while writing it.
      elements.deinitialize(count: claimed.load(ordering: .acquiring))
      elements.deallocate()
    }

    /// Writes the `count` slots after the first `offset` with `fill`, if they are the next ones
    /// unclaimed and there is room for them; returns whether it did.
    @discardableResult @inlinable
    func write(
      _ count: Int, after offset: Int,
      _ fill: (UnsafeMutableBufferPointer<Effect<Action>>) -> Int
    ) -> Bool {
      guard offset + count <= capacity,
        claimed.compareExchange(
          expected: offset, desired: offset + count, ordering: .acquiringAndReleasing
        ).exchanged
      else { return false }
      _ = EffectParts.filled(
        UnsafeMutableBufferPointer(start: elements + offset, count: count), fill)
      return true
    }
  }
}
