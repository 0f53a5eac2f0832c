/// The action of a presented child: an action of the child itself, or its dismissal.
@CasePathable
public enum PresentationAction<Action>: CasePathable {
  /// The child was dismissed (swiped away, closed, or it called `dismiss()`).
  case dismiss
  /// An action of the presented child.
  indirect case presented(Action)
}

extension PresentationAction: Equatable where Action: Equatable {}
extension PresentationAction: Hashable where Action: Hashable {}
/// Recordable when the child's action is: `{"dismiss": {}}`, `{"presented": {"_0": …}}`.
extension PresentationAction: Codable where Action: Codable {}
extension PresentationAction: Sendable where Action: Sendable {}

extension Case {
  /// Reaches through `.presented` so tests can write `\.destination.alert.confirm`.
  public subscript<Action: CasePathable, AppendedAction>(
    dynamicMember keyPath: KeyPath<Action.AllCasePaths, AnyCasePath<Action, AppendedAction>>
  ) -> Case<AppendedAction>
  where Value == PresentationAction<Action> {
    self[dynamicMember: \.presented][dynamicMember: keyPath]
  }
}
