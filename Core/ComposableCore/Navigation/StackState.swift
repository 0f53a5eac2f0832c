import ComposableSharing
import CustomDump

/// The identity of an element of a navigation stack. Ids come from the `stackElementID`
/// dependency, which counts 0, 1, 2… so a test can write `.element(id: 0, action: …)`.
public struct StackElementID: Hashable, Comparable, Sendable, ExpressibleByIntegerLiteral,
  CustomStringConvertible, CustomDumpStringConvertible
{
  /// The position of the id in the sequence of ids handed out.
  public let rawValue: Int

  /// An id with a given number.
  public init(rawValue: Int) {
    self.rawValue = rawValue
  }

  /// An id written as a literal: `0`, `1`…
  public init(integerLiteral value: Int) {
    self.rawValue = value
  }

  /// Ids order by when they were handed out.
  public static func < (lhs: Self, rhs: Self) -> Bool {
    lhs.rawValue < rhs.rawValue
  }

  /// `#0`, `#1`…
  public var description: String { "#\(rawValue)" }

  /// Dumps as `#0`, `#1`…, as TCA's ids dump.
  public var customDumpDescription: String { "#\(rawValue)" }

  /// The position of the id in the sequence handed out, under TCA's name for it.
  @_spi(Internals) public var generation: Int { rawValue }
}

extension StackElementID: Codable {
  /// An id written as its number.
  public init(from decoder: any Decoder) throws {
    self.init(rawValue: try decoder.singleValueContainer().decode(Int.self))
  }

  /// Writes the number.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(rawValue)
  }
}

/// Hands out stack element ids in increasing order.
public struct StackElementIDGenerator: Sendable {
  private let counter = Locked(0)

  /// A generator whose first id is 0.
  public init() {}

  /// A generator of its own that goes on from where this one is: a test store hands one to an
  /// assertion closure, so that an element it appends gets the id the reducer's got.
  package func copy() -> Self {
    let copy = Self()
    copy.counter.withLock { $0 = peek().rawValue }
    return copy
  }

  /// The next id.
  public func next() -> StackElementID {
    counter.withLock { count in
      defer { count += 1 }
      return StackElementID(rawValue: count)
    }
  }

  /// The id `next()` will return, without using it.
  public func peek() -> StackElementID {
    StackElementID(rawValue: counter.withLock { $0 })
  }

  /// Makes sure later ids are greater than `id`, after an element arrived with an id of its own.
  func reserve(through id: StackElementID) {
    counter.withLock { $0 = max($0, id.rawValue + 1) }
  }
}

extension StackElementIDGenerator: DependencyKey {
  /// A fresh counter for the app.
  public static var liveValue: Self { Self() }
  /// A fresh counter per test, so ids start at 0.
  public static var testValue: Self { Self() }
}

extension DependencyValues {
  /// The generator of navigation stack element ids.
  public var stackElementID: StackElementIDGenerator {
    get { self[StackElementIDGenerator.self] }
    set { self[StackElementIDGenerator.self] = newValue }
  }
}

/// The state of a navigation stack: its elements, each with a stable ``StackElementID``.
///
/// Appending takes the next id from the `stackElementID` dependency. Setting `path[id: n]` for an
/// id not yet in the stack appends the element with that id, which is how a test asserts a push:
/// `$0.path[id: 0] = .detail(…)`.
public struct StackState<Element> {
  @usableFromInline var _ids: [StackElementID]
  @usableFromInline var _elements: [Element]
  /// The ids as `forEach` last saw them, once an element started work: elements removed
  /// outside it since have their work cancelled by its next action, as TCA does. Not part of the
  /// value (equality, hashing, coding and dumps ignore it).
  @usableFromInline var _idsSeenWithWork: [StackElementID]?

  /// An empty stack.
  public init() {
    _ids = []
    _elements = []
  }

  /// A stack of the given elements, with newly generated ids: a deep link.
  public init(_ elements: some Sequence<Element>) {
    @Dependency(\.stackElementID) var stackElementID
    _elements = Array(elements)
    _ids = _elements.map { _ in stackElementID.next() }
  }

  /// The ids of the elements, bottom to top.
  @inlinable
  public var ids: [StackElementID] { _ids }

  /// The position of the element with `id`.
  ///
  /// Searched from the top: the screen a user acts on is the top one, so its actions and a pop
  /// from near the top cost the same however deep the stack is. Ids are unique, so the first
  /// match from either end is the only one.
  @inlinable
  func index(id: StackElementID) -> Int? {
    _ids.lastIndex(of: id)
  }

  /// Changes the element with `id` where it is and returns what `body` returned; `nil`, without
  /// calling `body`, when no element has that id.
  @inlinable
  mutating func modifyElement<T>(id: StackElementID, _ body: (inout Element) -> T) -> T? {
    guard let index = index(id: id) else { return nil }
    return body(&_elements[index])
  }

  /// The element with `id`; setting `nil` removes it, and setting an id not in the stack appends
  /// the element with that id.
  public subscript(id id: StackElementID) -> Element? {
    _read {
      yield index(id: id).map { _elements[$0] }
    }
    _modify {
      if let index = index(id: id) {
        // Moved out while it changes, not copied: a copy would make the element's own storage
        // (a list it holds) copy itself on the first change. A stack is as deep as a screen's
        // navigation, so moving the elements above it is cheap.
        var element: Element? = _elements.remove(at: index)
        defer {
          if let element {
            _elements.insert(element, at: index)
          } else {
            _ids.remove(at: index)
          }
        }
        yield &element
      } else {
        var element: Element?
        yield &element
        if let element {
          @Dependency(\.stackElementID) var stackElementID
          stackElementID.reserve(through: id)
          _ids.append(id)
          _elements.append(element)
        }
      }
    }
  }

  /// The element with `id` when it is in the case at `casePath`; setting changes it only in that
  /// case (`$0.path[id: 0, case: \.detail]?.title = "New"`), and setting `nil` removes it. A change
  /// while the element is in another case is reported and changes nothing.
  public subscript<Case>(
    id id: StackElementID,
    case casePath: CaseKeyPath<Element, Case>,
    fileID fileID: StaticString = #fileID,
    filePath filePath: StaticString = #filePath,
    line line: UInt = #line,
    column column: UInt = #column
  ) -> Case?
  where Element: CasePathable {
    get { self[id: id].flatMap { $0[case: casePath] } }
    set {
      self[id: id] = _settingCase(
        of: self[id: id], to: newValue, embed: { casePath($0) }, extract: { $0[case: casePath] },
        location: IssueLocation(fileID: fileID, filePath: filePath, line: line, column: column))
    }
  }

  /// Removes the element with `id` and every element above it.
  public mutating func pop(from id: StackElementID) {
    guard let index = index(id: id) else { return }
    _ids.removeSubrange(index...)
    _elements.removeSubrange(index...)
  }

  /// Removes every element above the one with `id`.
  public mutating func pop(to id: StackElementID) {
    guard let index = index(id: id) else { return }
    _ids.removeSubrange((index + 1)...)
    _elements.removeSubrange((index + 1)...)
  }

  /// Appends `element` with a specific id, as a `.push(id:state:)` action does.
  mutating func append(_ element: Element, id: StackElementID) {
    @Dependency(\.stackElementID) var stackElementID
    stackElementID.reserve(through: id)
    _ids.append(id)
    _elements.append(element)
  }
}

extension StackState: RandomAccessCollection, MutableCollection, RangeReplaceableCollection {
  /// Positions count from the bottom of the stack.
  public var startIndex: Int { _elements.startIndex }
  /// One past the top of the stack.
  public var endIndex: Int { _elements.endIndex }

  /// The element at a position; setting it changes that screen's state and keeps its id.
  public subscript(position: Int) -> Element {
    get { _elements[position] }
    set { _elements[position] = newValue }
  }

  /// Exchanges two elements, each with its id.
  ///
  /// The reorderings that go through this (`removeAll(where:)`, `reverse()`, `partition(by:)`,
  /// `shuffle()`) keep every element's identity, and with it its effects and its scoped store.
  /// Through the subscript alone, the ids stayed where they were: after
  /// `removeAll(where:)` a remaining screen took another's id and received its effects' actions.
  public mutating func swapAt(_ i: Int, _ j: Int) {
    _ids.swapAt(i, j)
    _elements.swapAt(i, j)
  }

  /// Sorts the elements, each keeping its id.
  ///
  /// The standard library sorts a collection without contiguous storage by assigning elements to
  /// positions, which would leave the ids where they were; this sorts the pairs instead.
  public mutating func sort(by areInIncreasingOrder: (Element, Element) throws -> Bool) rethrows {
    var pairs = Array(zip(_ids, _elements))
    try pairs.sort { try areInIncreasingOrder($0.1, $1.1) }
    _ids = pairs.map(\.0)
    _elements = pairs.map(\.1)
  }

  /// Replaces elements; new elements get newly generated ids.
  public mutating func replaceSubrange<C: Collection<Element>>(
    _ subrange: Range<Int>,
    with newElements: C
  ) {
    @Dependency(\.stackElementID) var stackElementID
    _ids.replaceSubrange(subrange, with: newElements.map { _ in stackElementID.next() })
    _elements.replaceSubrange(subrange, with: newElements)
  }

  /// Removes every element. The stack stays the same stack: `forEach` still knows which of its
  /// elements had work to end (the collection's default would make a new, empty one).
  public mutating func removeAll(keepingCapacity keepCapacity: Bool = false) {
    _ids.removeAll(keepingCapacity: keepCapacity)
    _elements.removeAll(keepingCapacity: keepCapacity)
  }
}

extension StackState where Element: Comparable {
  /// Sorts the elements in increasing order, each keeping its id.
  public mutating func sort() {
    sort(by: <)
  }
}

extension StackState: ExpressibleByArrayLiteral {
  /// A stack of the listed elements, with newly generated ids.
  public init(arrayLiteral elements: Element...) {
    self.init(elements)
  }
}

extension StackState: Equatable where Element: Equatable {
  /// Stacks are equal when they hold equal elements under the same ids.
  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs._ids == rhs._ids && lhs._elements == rhs._elements
  }
}

extension StackState: Hashable where Element: Hashable {
  /// Hashes ids and elements.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(_ids)
    hasher.combine(_elements)
  }
}

extension StackState: Sendable where Element: Sendable {}

extension StackState: Codable where Element: Codable {
  /// Encodes the elements; ids are an in-memory identity and are made anew on decoding.
  public func encode(to encoder: any Encoder) throws {
    try _elements.encode(to: encoder)
  }

  /// Decodes elements and gives them new ids.
  public init(from decoder: any Decoder) throws {
    self.init(try [Element](from: decoder))
  }
}

extension StackState: CustomDumpReflectable {
  /// Dumps as a dictionary from id to element, so a diff names the element that changed.
  public var customDumpMirror: Mirror {
    Mirror(
      self,
      // The pairs CustomDump reads as a dictionary's: `[#0: Detail.State(…), #1: …]`.
      unlabeledChildren: zip(_ids, _elements).map { (key: AnyHashable($0), value: $1 as Any) },
      displayStyle: .dictionary
    )
  }
}

extension StackState: CustomStringConvertible {
  /// The elements with their ids.
  public var description: String {
    "StackState(" + zip(_ids, _elements).map { "\($0): \($1)" }.joined(separator: ", ") + ")"
  }
}
