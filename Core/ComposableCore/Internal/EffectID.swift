/// An id of any hashable type, as effects use them: cancellation and throttling ids, a forEach
/// or stack element's id, a presented child's identity. Equal to another when both have the
/// same type and are equal as that type, as TCA's cancellation ids are.
///
/// Not `AnyHashable`: making one asks the runtime whether the type has a custom hashable
/// representation, about 700 to 1,100 instructions for every `.cancel(id:)`,
/// `cancellable(id:)`, and effect of a row or presented child.
@usableFromInline
struct EffectID: Hashable, @unchecked Sendable {
  // Ids are immutable values, only hashed and compared; cancellation ids come in `Sendable`.
  let value: any Hashable

  @usableFromInline
  init(_ value: some Hashable) {
    self.value = value
  }

  @usableFromInline
  static func == (lhs: Self, rhs: Self) -> Bool {
    // The same type first: a subclass instance may equal its superclass's, yet hash apart.
    guard type(of: lhs.value) == type(of: rhs.value) else { return false }
    func isEqual<ID: Hashable>(_ lhs: ID) -> Bool { rhs.value as? ID == lhs }
    return isEqual(lhs.value)
  }

  @usableFromInline
  func hash(into hasher: inout Hasher) {
    hasher.combine(ObjectIdentifier(type(of: value)))
    hasher.combine(value)
  }
}
