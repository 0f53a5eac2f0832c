import CasePaths

/// Where a store's child store or collection of row stores is: the paths it was scoped with, and
/// whether it is a presentation's. Not nested in the generic `Store`: a type nested there has
/// generic metadata, looked up on every `scope` call, and its dictionaries ran unspecialised.
struct ScopeID: Hashable {
  let state: AnyKeyPath
  let action: ScopeAction
  var isPresentation = false
}

/// The case a scoped store's actions go to, as the store's cache knows it: the case key path
/// written, or the key path into `AllCasePaths` that `action: \.child` resolves to for a
/// `@CasePathable` action (`CasePathableForms.swift`). Both spellings of one case name one store.
/// A member is compared as itself, and made into the case key path it stands for only to meet
/// one written as such: a renderer asks for its scopes on every drawing, and making that key path
/// (the runtime instantiates it) cost more than the rest of the lookup.
@usableFromInline
struct ScopeAction: Hashable {
  @usableFromInline let path: AnyKeyPath
  /// For a member of `AllCasePaths`, what makes the case key path it stands for.
  @usableFromInline let member: (any _CaseKeyPathMaking.Type)?

  @inlinable
  init<Root, Value>(_ keyPath: CaseKeyPath<Root, Value>) {
    self.path = keyPath
    self.member = nil
  }

  @inlinable
  init<Root: CasePathable, Value>(member: _CasePathMember<Root, Value>) {
    self.path = member
    self.member = _CaseKeyPathMaker<Root, Value>.self
  }

  @usableFromInline
  static func == (lhs: Self, rhs: Self) -> Bool {
    switch (lhs.member, rhs.member) {
    case (nil, nil), (.some, .some): lhs.path == rhs.path
    case (let member?, nil): member.caseKeyPath(of: lhs.path) == rhs.path
    case (nil, let member?): lhs.path == member.caseKeyPath(of: rhs.path)
    }
  }

  // Not hashed: a member and the case key path it stands for must hash alike, which only making
  // that key path would tell. The state path, hashed beside it, tells scopes apart.
  @usableFromInline
  func hash(into hasher: inout Hasher) {}
}

/// Makes the case key path a member of `AllCasePaths` stands for, for ``ScopeAction``.
@usableFromInline
protocol _CaseKeyPathMaking {
  static func caseKeyPath(of member: AnyKeyPath) -> AnyKeyPath
}

@usableFromInline
enum _CaseKeyPathMaker<Root: CasePathable, Value>: _CaseKeyPathMaking {
  @usableFromInline
  static func caseKeyPath(of member: AnyKeyPath) -> AnyKeyPath {
    guard let member = member as? _CasePathMember<Root, Value> else { return member }
    return _caseKeyPath(member)
  }
}
