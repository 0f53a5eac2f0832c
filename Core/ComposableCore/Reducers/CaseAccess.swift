import CasePaths
import Foundation
import Synchronization

/// Reads and writes one case of an enum for a reducer operator or a scoped store, given the case
/// key path it was written with (`action: \.child`).
///
/// Going through the key path costs thousands of instructions per call: it boxes the value,
/// casts it, and applies a key path into the enum's `AllCasePaths`. Once this accessor has seen
/// the key path succeed, and the key path is exactly the one `@CasePathable` made for that case,
/// it remembers the case's tag and from then on compares tags and moves the payload directly,
/// through the enum's value witnesses. Anything it cannot prove (a key path through several
/// cases, a hand-written case path, an `indirect` case, a type that is not an enum) keeps using
/// the key path.
@usableFromInline
package final class CaseAccess<Root, Value>: @unchecked Sendable {
  @usableFromInline let keyPath: CaseKeyPath<Root, Value>
  @usableFromInline let slow: Case<Value>
  @usableFromInline let lock = Mutex(())
  /// Written once, under the lock. Behind a pointer rather than in a stored `var`, which would
  /// add a dynamic exclusivity check to every action.
  @usableFromInline let mode: UnsafeMutablePointer<CaseAccessMode>
  /// Set, with release ordering, once `mode` will never change again: from then on it is read
  /// without the lock.
  @usableFromInline let isSettled: Atomic<Bool>

  @usableFromInline
  package init(_ keyPath: CaseKeyPath<Root, Value>) {
    self.keyPath = keyPath
    self.slow = Case(keyPath)
    self.mode = .allocate(capacity: 1)
    // `action: \.self` scopes to the whole action, as `Scope` does for a child of the same type.
    let isIdentity =
      Root.self == Value.self && (keyPath as AnyKeyPath) == (\Case<Root>.self as AnyKeyPath)
    self.mode.initialize(to: isIdentity ? .identity : .learning)
    self.isSettled = Atomic(isIdentity)
  }

  deinit {
    mode.deinitialize(count: 1)
    mode.deallocate()
  }

  /// The case's associated value, or `nil` when `root` is in another case.
  @inlinable
  package func extract(from root: Root) -> Value? {
    switch currentMode {
    case .tag(let tag, let witnesses):
      guard witnesses.tag(of: root) == tag else { return nil }
      return witnesses.payload(of: root, as: Value.self)
    case .identity:
      return unsafeBitCast(root, to: Value.self)
    case .keyPathOnly:
      return slow._extract(from: root)
    case .learning:
      guard let value = slow._extract(from: root) else { return nil }
      learn(from: root, value: value)
      return value
    }
  }

  /// The enum value in this case with `value` as its associated value.
  @inlinable
  package func embed(_ value: Value) -> Root {
    switch currentMode {
    case .tag(let tag, let witnesses):
      return witnesses.make(Root.self, tag: tag, payload: value)
    case .identity:
      return unsafeBitCast(value, to: Root.self)
    case .keyPathOnly:
      return slow._embed(value) as! Root
    case .learning:
      let root = slow._embed(value) as! Root
      learn(from: root, value: value)
      return root
    }
  }

  @inlinable
  var currentMode: CaseAccessMode {
    if isSettled.load(ordering: .acquiring) { return mode.pointee }
    return lock.withLock { _ in mode.pointee }
  }

  /// Whether this accessor has proven it can use the case's tag instead of the key path.
  package var usesTag: Bool {
    if case .tag = currentMode { return true }
    return false
  }

  /// Decides, once, whether the tag can stand in for the key path: `root` is known to be in the
  /// case, and holds `value`.
  @usableFromInline
  func learn(from root: Root, value: Value) {
    let learned = CaseAccessMode.learned(for: keyPath) { decide(from: root, value: value) }
    lock.withLock { _ in
      if case .learning = mode.pointee {
        mode.pointee = learned
        isSettled.store(true, ordering: .releasing)
      }
    }
  }

  private func decide(from root: Root, value: Value) -> CaseAccessMode {
    let learned: CaseAccessMode
    if MemoryLayout<Value>.size > 0,
      let witnesses = EnumWitnesses(Root.self),
      isGeneratedCasePath(for: root),
      case let tag = witnesses.tag(of: root),
      witnesses.isDirectPayloadCase(tag),
      witnesses.payloadBits(of: root, as: Value.self) == bits(of: value)
    {
      learned = .tag(tag, witnesses)
    } else {
      learned = .keyPathOnly
    }
    return learned
  }

  /// Whether the key path is the one `@CasePathable` generated for the case `root` is in, which
  /// makes "in that case" and "the key path extracts" the same thing.
  private func isGeneratedCasePath(for root: Root) -> Bool {
    guard let enumType = Root.self as? any CasePathable.Type else { return false }
    func casePath<E: CasePathable>(_: E.Type) -> AnyKeyPath? {
      guard let reflectable = E.allCasePaths as? any CasePathReflectable<E> else { return nil }
      return reflectable[root as! E]
    }
    return casePath(enumType) == keyPath
  }

  private func bits<T>(of value: T) -> [UInt8] {
    withUnsafeBytes(of: value) { Array($0) }
  }
}

/// What a ``CaseAccess`` has learned about its key path.
@usableFromInline
enum CaseAccessMode: @unchecked Sendable {
  /// Not yet seen the key path succeed.
  case learning
  /// The case is the one with this tag, and its payload can be moved directly.
  case tag(UInt32, EnumWitnesses)
  /// Only the key path can say.
  case keyPathOnly
  /// The key path is `\.self`: the value is the root.
  case identity
}

extension CaseAccessMode {
  /// Key paths are immutable values, only hashed and compared here.
  private struct Key: Hashable, @unchecked Sendable {
    let keyPath: AnyKeyPath
  }

  private static let decisions = Mutex<[Key: CaseAccessMode]>([:])

  /// What was decided for `keyPath` before, or `decide()`'s answer, remembered. Everything the
  /// decision rests on belongs to the key path and its types, so it holds for every accessor made
  /// from an equal key path; and making the decision is costly (reflecting on the enum
  /// instantiates a key path per case), while a body that cannot be cached makes new accessors on
  /// every action.
  static func learned(for keyPath: AnyKeyPath, decide: () -> CaseAccessMode) -> CaseAccessMode {
    let key = Key(keyPath: keyPath)
    if let known = decisions.withLock({ $0[key] }) { return known }
    let decision = decide()
    decisions.withLock { $0[key] = decision }
    return decision
  }
}

/// The enum functions of a type's value witness table, and its case layout from the reflection
/// metadata the compiler emits for every enum.
@usableFromInline
struct EnumWitnesses: @unchecked Sendable {
  // The witnesses take their arguments as plain pointers in the C argument registers.
  @usableFromInline typealias GetTag = @convention(c) (UnsafeRawPointer, UnsafeRawPointer) -> UInt32
  @usableFromInline typealias Project =
    @convention(c) (UnsafeMutableRawPointer, UnsafeRawPointer) -> Void
  @usableFromInline typealias Inject =
    @convention(c) (UnsafeMutableRawPointer, UInt32, UnsafeRawPointer) -> Void

  @usableFromInline let metadata: UnsafeRawPointer
  @usableFromInline let getTag: GetTag
  @usableFromInline let project: Project
  @usableFromInline let inject: Inject

  /// The witnesses of `type`, or `nil` when it is not an enum the runtime describes as such.
  init?(_ type: Any.Type) {
    // The offsets below are those of the 64-bit runtime; anywhere else, keep the key path.
    guard MemoryLayout<UnsafeRawPointer>.size == 8 else { return nil }
    let metadata = unsafeBitCast(type, to: UnsafeRawPointer.self)
    // Metadata kinds 0x201 and 0x202 are enums and `Optional`.
    let kind = metadata.load(as: UInt.self)
    guard kind == 0x201 || kind == 0x202 else { return nil }
    let witnessTable = metadata.load(
      fromByteOffset: -MemoryLayout<UnsafeRawPointer>.size,
      as: UnsafeRawPointer.self)
    // The "has enum witnesses" flag guards the three entries past the common table.
    let flags = witnessTable.load(fromByteOffset: 80, as: UInt32.self)
    guard flags & 0x0020_0000 != 0 else { return nil }
    self.metadata = metadata
    self.getTag = unsafeBitCast(
      witnessTable.load(fromByteOffset: 88, as: UnsafeRawPointer.self),
      to: GetTag.self)
    self.project = unsafeBitCast(
      witnessTable.load(fromByteOffset: 96, as: UnsafeRawPointer.self),
      to: Project.self)
    self.inject = unsafeBitCast(
      witnessTable.load(fromByteOffset: 104, as: UnsafeRawPointer.self),
      to: Inject.self)
  }

  /// Reads the payload cases from the enum's type descriptor and field descriptor.
  private static func indirectPayloadCases(_ metadata: UnsafeRawPointer) -> [Bool]? {
    let descriptor = metadata.load(fromByteOffset: 8, as: UnsafeRawPointer.self)
    // Context descriptor kind 18 is an enum.
    guard descriptor.load(as: UInt32.self) & 0x1F == 18 else { return nil }
    let fieldsOffset = descriptor.load(fromByteOffset: 16, as: Int32.self)
    guard fieldsOffset != 0 else { return nil }
    let payloadCaseCount = Int(descriptor.load(fromByteOffset: 20, as: UInt32.self) & 0x00FF_FFFF)
    let fields = descriptor + 16 + Int(fieldsOffset)
    let recordSize = Int(fields.load(fromByteOffset: 10, as: UInt16.self))
    let recordCount = Int(fields.load(fromByteOffset: 12, as: UInt32.self))
    guard recordSize >= 12 else { return nil }
    var cases: [Bool] = []
    for index in 0..<recordCount {
      let record = fields + 16 + index * recordSize
      let recordFlags = record.load(as: UInt32.self)
      let hasPayload = record.load(fromByteOffset: 4, as: Int32.self) != 0
      // Payload cases take the first tags, in declaration order; bit 0 marks `indirect`.
      if hasPayload { cases.append(recordFlags & 0x1 != 0) }
    }
    guard cases.count == payloadCaseCount else { return nil }
    return cases
  }

  /// The tag of the case `value` is in.
  @inlinable
  func tag<T>(of value: T) -> UInt32 {
    withUnsafePointer(to: value) { getTag(UnsafeRawPointer($0), metadata) }
  }

  /// Whether the case with this tag keeps its payload inline. Worked out from the reflection
  /// metadata when learning, so the witnesses themselves stay plain pointers, cheap to copy.
  func isDirectPayloadCase(_ tag: UInt32) -> Bool {
    guard let indirect = Self.indirectPayloadCases(metadata) else { return false }
    return Int(tag) < indirect.count && !indirect[Int(tag)]
  }

  /// The payload of `value`, which must be in a direct payload case whose payload is a `P`.
  @inlinable
  func payload<T, P>(of value: T, as _: P.Type) -> P {
    withScratch(for: T.self) { raw in
      raw.initializeMemory(as: T.self, to: value)
      project(raw, metadata)
      // The projected memory now holds only the payload: moving it out consumes the copy.
      return raw.bindMemory(to: P.self, capacity: 1).move()
    }
  }

  /// The bytes of the payload of `value`, to check that a payload reads back as a `P`.
  func payloadBits<T, P>(of value: T, as _: P.Type) -> [UInt8] {
    let payload = payload(of: value, as: P.self)
    return withUnsafeBytes(of: payload) { Array($0) }
  }

  /// The value of type `T` in the case with `tag`, holding `payload`.
  @inlinable
  func make<T, P>(_: T.Type, tag: UInt32, payload: P) -> T {
    withScratch(for: T.self) { raw in
      raw.initializeMemory(as: P.self, to: payload)
      inject(raw, tag, metadata)
      return raw.bindMemory(to: T.self, capacity: 1).move()
    }
  }

  /// Uninitialised memory for one `T`, on the stack when it fits: `withUnsafeTemporaryAllocation`
  /// looks up type metadata when unspecialised, and the heap allocator costs more than the rest
  /// of an extraction.
  @inlinable
  func withScratch<T, R>(for _: T.Type, _ body: (UnsafeMutableRawPointer) -> R) -> R {
    guard MemoryLayout<T>.size <= 128, MemoryLayout<T>.alignment <= 8 else {
      let pointer = UnsafeMutablePointer<T>.allocate(capacity: 1)
      defer { pointer.deallocate() }
      return body(UnsafeMutableRawPointer(pointer))
    }
    var scratch:
      (
        UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64,
        UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64
      ) = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    return withUnsafeMutableBytes(of: &scratch) { body($0.baseAddress!) }
  }
}
