import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxBuilder
import SwiftSyntaxMacros

/// `@Reducer`: on a struct, the `Reducer` conformance, case paths on `State` and `Action`, the
/// builder attribute on `body`, and default `State`, `Action` and `body` when none are written.
/// On an enum of reducer cases, the whole reducer: `State`, `Action`, `body`, `CaseScope` and
/// `scope(_:)`.
public enum ReducerMacro {}

// MARK: - Conformance

extension ReducerMacro: ExtensionMacro {
  /// Adds `Reducer` (and `CaseReducer` for an enum) unless the type already declares it.
  public static func expansion(
    of node: AttributeSyntax,
    attachedTo declaration: some DeclGroupSyntax,
    providingExtensionsOf type: some TypeSyntaxProtocol,
    conformingTo protocols: [TypeSyntax],
    in context: some MacroExpansionContext
  ) throws -> [ExtensionDeclSyntax] {
    let conformances: String
    if let enumDecl = declaration.as(EnumDeclSyntax.self) {
      guard !enumDecl.inheritanceClause.contains("CaseReducer") else { return [] }
      conformances = "ComposableCore.CaseReducer, ComposableCore.Reducer"
    } else if let structDecl = declaration.as(StructDeclSyntax.self) {
      guard !structDecl.inheritanceClause.contains("Reducer") else { return [] }
      conformances = "ComposableCore.Reducer"
    } else {
      // Diagnosed once, by the member role.
      return []
    }
    let availability = declaration.attributes.availability
    let decl: DeclSyntax = "\(availability)extension \(type.trimmed): \(raw: conformances) {}"
    return [decl.cast(ExtensionDeclSyntax.self)]
  }
}

// MARK: - Attributes on members

extension ReducerMacro: MemberAttributeMacro {
  /// Marks `State` and `Action` enums case-pathable, a `State` struct that presents children
  /// with where their storage is, `body` with the builder, and an enum reducer's alert, dialog
  /// and plain-state cases.
  public static func expansion(
    of node: AttributeSyntax,
    attachedTo declaration: some DeclGroupSyntax,
    providingAttributesFor member: some DeclSyntaxProtocol,
    in context: some MacroExpansionContext
  ) throws -> [AttributeSyntax] {
    let isEnumReducer = declaration.is(EnumDeclSyntax.self)
    guard isEnumReducer || declaration.is(StructDeclSyntax.self) else { return [] }
    if isEnumReducer, member.is(EnumCaseDeclSyntax.self) {
      return caseAttributes(for: member)
    }

    if let enumDecl = member.as(EnumDeclSyntax.self),
      ["State", "Action"].contains(enumDecl.name.text)
    {
      var attributes: [AttributeSyntax] = []
      if !enumDecl.attributes.contains(named: "CasePathable"),
        !enumDecl.inheritanceClause.contains("CasePathable")
      {
        attributes.append("@CasePathable")
      }
      if !enumDecl.attributes.contains(named: "dynamicMemberLookup") {
        attributes.append("@dynamicMemberLookup")
      }
      // A hand-written `CasePathable` conformance may not have a case path per case.
      if !enumDecl.attributes.contains(named: "_CaseAccessors"),
        !enumDecl.inheritanceClause.contains("CasePathable")
      {
        attributes.append("@_CaseAccessors")
      }
      return attributes
    }

    // Observable state names its presentation storage itself.
    if !isEnumReducer, let structDecl = member.as(StructDeclSyntax.self),
      structDecl.name.text == "State",
      !structDecl.attributes.contains(named: "ObservableState"),
      !structDecl.attributes.contains(named: "_PresentsStorage"),
      !PresentsStorageMacro.presentedProperties(of: structDecl).isEmpty
    {
      return ["@ComposableCore._PresentsStorage"]
    }

    // A struct's `var body`, or the `static var body` an enum reducer may write for itself.
    if let variable = member.as(VariableDeclSyntax.self),
      variable.modifiers.isStatic == isEnumReducer,
      let binding = variable.bindings.first,
      binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text == "body",
      binding.accessorBlock != nil,
      !variable.attributes.contains(named: "ReducerBuilder")
    {
      let (state, action) = builderArguments(of: binding.typeAnnotation?.type)
      return ["@ComposableCore.ReducerBuilder<\(raw: state), \(raw: action)>"]
    }
    return []
  }

  /// The state and action a body's declared type names: `some Reducer<S, A>` gives `S, A`,
  /// `some ReducerOf<R>` gives `R.State, R.Action`; anything else is the reducer's own.
  static func builderArguments(of type: TypeSyntax?) -> (String, String) {
    let fallback = ("Self.State", "Self.Action")
    guard let constraint = type?.as(SomeOrAnyTypeSyntax.self)?.constraint,
      let name = constraint.as(IdentifierTypeSyntax.self)
        ?? constraint.as(MemberTypeSyntax.self).map({ member in
          IdentifierTypeSyntax(
            name: member.name, genericArgumentClause: member.genericArgumentClause)
        }),
      let arguments = name.genericArgumentClause?.arguments.map(\.argument.trimmedDescription)
    else { return fallback }
    switch (name.name.text, arguments.count) {
    case ("Reducer", 2): return (arguments[0], arguments[1])
    case ("ReducerOf", 1): return ("\(arguments[0]).State", "\(arguments[0]).Action")
    default: return fallback
    }
  }

  /// Marks, on an enum reducer, the cases the macro treats as ephemeral (alerts and dialogs) or
  /// as plain state (anything that is not one reducer), so the expansion shows what it inferred.
  static func caseAttributes(for member: some DeclSyntaxProtocol) -> [AttributeSyntax] {
    guard let caseDecl = member.as(EnumCaseDeclSyntax.self),
      !caseDecl.attributes.contains(named: "ReducerCaseEphemeral"),
      !caseDecl.attributes.contains(named: "ReducerCaseIgnored"),
      let element = caseDecl.elements.first
    else { return [] }
    switch ReducerCase.inferredKind(of: element) {
    case .ephemeral: return ["@ReducerCaseEphemeral"]
    case .ignored where element.parameterClause != nil: return ["@ReducerCaseIgnored"]
    default: return []
    }
  }
}

// MARK: - Members

extension ReducerMacro: MemberMacro {
  /// Writes the missing requirements of a struct reducer, or the whole of an enum reducer, and
  /// reports what cannot be a reducer.
  public static func expansion(
    of node: AttributeSyntax,
    providingMembersOf declaration: some DeclGroupSyntax,
    conformingTo protocols: [TypeSyntax],
    in context: some MacroExpansionContext
  ) throws -> [DeclSyntax] {
    if let structDecl = declaration.as(StructDeclSyntax.self) {
      return structMembers(structDecl, node: node, in: context)
    }
    if let enumDecl = declaration.as(EnumDeclSyntax.self) {
      return enumMembers(enumDecl, node: node, in: context)
    }
    diagnoseNotStructOrEnum(declaration, node: node, in: context)
    return []
  }

  static func diagnoseNotStructOrEnum(
    _ declaration: some DeclGroupSyntax,
    node: AttributeSyntax,
    in context: some MacroExpansionContext
  ) {
    let keyword: TokenSyntax? =
      declaration.as(ClassDeclSyntax.self)?.classKeyword
      ?? declaration.as(ActorDeclSyntax.self)?.actorKeyword
    let message = MacroMessage(
      message: "'@Reducer' can only be applied to a struct or an enum; reducers are values",
      id: "notStructOrEnum"
    )
    var fixIts: [FixIt] = []
    if let keyword {
      fixIts.append(
        FixIt(
          message: MacroMessage(
            message: "Replace '\(keyword.text)' with 'struct'", id: "useStruct"),
          changes: [
            .replace(
              oldNode: Syntax(keyword),
              newNode: Syntax(keyword.with(\.tokenKind, .keyword(.struct))))
          ]
        )
      )
    }
    context.diagnose(
      Diagnostic(node: keyword.map(Syntax.init) ?? Syntax(node), message: message, fixIts: fixIts))
  }

  // MARK: Struct reducers

  static func structMembers(
    _ structDecl: StructDeclSyntax,
    node: AttributeSyntax,
    in context: some MacroExpansionContext
  ) -> [DeclSyntax] {
    let access = structDecl.modifiers.accessPrefix
    var hasState = false
    var hasAction = false
    var body: VariableDeclSyntax?
    var reduce: FunctionDeclSyntax?

    for member in structDecl.memberBlock.members {
      let decl = member.decl
      if let name = nestedTypeName(decl) {
        if name.text == "State" {
          hasState = true
          diagnoseKind(of: decl, named: "State", allowsStruct: true, in: context)
        } else if name.text == "Action" {
          hasAction = true
          diagnoseKind(of: decl, named: "Action", allowsStruct: false, in: context)
        }
      } else if let variable = decl.as(VariableDeclSyntax.self), !variable.modifiers.isStatic,
        variable.bindings.contains(where: {
          $0.pattern.as(IdentifierPatternSyntax.self)?.identifier.text == "body"
        })
      {
        body = variable
      } else if let function = decl.as(FunctionDeclSyntax.self), function.name.text == "reduce",
        function.signature.parameterClause.parameters.map({ $0.firstName.text })
          == ["into", "action"]
      {
        reduce = function
      }
    }

    if let reduce, body != nil {
      context.diagnose(
        Diagnostic(
          node: reduce.name,
          message: MacroMessage(
            message: """
              A 'reduce' method should not be defined in a reducer with a 'body'; it takes \
              precedence and 'body' will never be invoked
              """,
            id: "reduceAndBody"
          )
        )
      )
    }

    if let arguments = node.arguments, !arguments.trimmedDescription.isEmpty {
      context.diagnose(
        Diagnostic(
          node: arguments,
          message: MacroMessage(
            message: """
              Conformances in '@Reducer(state:action:)' apply to enum reducers; declare them on \
              this reducer's 'State' and 'Action'
              """,
            id: "structConformances",
            severity: .warning
          )
        )
      )
    }

    // A reducer that says nothing about its domain gets an empty one, as in TCA.
    guard body == nil, reduce == nil else { return [] }
    var members: [DeclSyntax] = []
    if !hasState {
      members.append(
        """
        \(raw: access)struct State: Codable, Equatable, Hashable, Sendable {
          \(raw: access)init() {}
        }
        """
      )
    }
    if !hasAction {
      members.append("\(raw: access)enum Action: Equatable, Hashable, Sendable {}")
    }
    members.append("\(raw: access)let body = ComposableCore.EmptyReducer<State, Action>()")
    return members
  }

  static func nestedTypeName(_ decl: DeclSyntax) -> TokenSyntax? {
    decl.as(StructDeclSyntax.self)?.name
      ?? decl.as(EnumDeclSyntax.self)?.name
      ?? decl.as(ClassDeclSyntax.self)?.name
      ?? decl.as(ActorDeclSyntax.self)?.name
      ?? decl.as(TypeAliasDeclSyntax.self)?.name
  }

  /// `State` must be a value (struct or enum) and `Action` an enum; a type alias is taken on
  /// trust.
  static func diagnoseKind(
    of decl: DeclSyntax,
    named name: String,
    allowsStruct: Bool,
    in context: some MacroExpansionContext
  ) {
    let keyword: TokenSyntax
    if let classDecl = decl.as(ClassDeclSyntax.self) {
      keyword = classDecl.classKeyword
    } else if let actorDecl = decl.as(ActorDeclSyntax.self) {
      keyword = actorDecl.actorKeyword
    } else if !allowsStruct, let structDecl = decl.as(StructDeclSyntax.self) {
      keyword = structDecl.structKeyword
    } else {
      return
    }
    let replacement: Keyword = allowsStruct ? .struct : .enum
    let expected = allowsStruct ? "a struct or an enum" : "an enum"
    context.diagnose(
      Diagnostic(
        node: keyword,
        message: MacroMessage(
          message: "'\(name)' of a '@Reducer' must be \(expected), not \(article(keyword.text))",
          id: "wrongKind\(name)"
        ),
        fixIts: [
          FixIt(
            message: MacroMessage(
              message: "Replace '\(keyword.text)' with '\(replacement)'",
              id: "replaceKind\(name)"
            ),
            changes: [
              .replace(
                oldNode: Syntax(keyword),
                newNode: Syntax(keyword.with(\.tokenKind, .keyword(replacement)))
              )
            ]
          )
        ]
      )
    )
  }

  static func article(_ word: String) -> String {
    (word.first.map { "aeiou".contains($0) } ?? false) ? "an \(word)" : "a \(word)"
  }

  // MARK: Enum reducers

  static func enumMembers(
    _ enumDecl: EnumDeclSyntax,
    node: AttributeSyntax,
    in context: some MacroExpansionContext
  ) -> [DeclSyntax] {
    let access = enumDecl.modifiers.accessPrefix
    let conformances = SynthesizedConformances(node.arguments)
    let items = EnumItem.items(of: enumDecl.memberBlock.members)
    let cases = items.flatMap(\.cases)
    let hasConditions = items.contains { if case .conditional = $0 { true } else { false } }

    let name = enumDecl.name.trimmed
    let stateInheritance = (["ComposableCore.CaseReducerState"] + conformances.state)
      .joined(separator: ", ")
    let actionInheritance = conformances.action.map { "\($0), " }.joined()
    // `_CaseAccessible`'s requirement for an enum of these cases.
    func caseAccess(_ cases: [String]) -> String {
      let members = MemberBlockSyntax(members: "\(raw: cases.joined(separator: "\n"))").members
      return CaseAccessorsMacro.caseAccessFunction(of: members, access: access)
    }

    let stateCases = EnumItem.render(items) { "  case \($0.name)\($0.stateParameters)" }
    // An enum without cases has no value to switch over.
    func switchOverCases(_ line: (ReducerCase) -> String, otherwise: String) -> String {
      guard !items.isEmpty else { return "    \(otherwise)" }
      return (["    switch self {"] + EnumItem.render(items, line) + ["    }"])
        .joined(separator: "\n")
    }
    let ephemeralBody = switchOverCases(\.ephemeralSwitchCase, otherwise: "false")
    let identityBody = switchOverCases(\.identitySwitchCase, otherwise: ".none")
    // Only for an enum with a case that holds one value: the protocol's default finds none.
    let casePathFunction =
      cases.contains { $0.casePathTest != nil }
      ? """

        \(access)static func _$casePath<_$Root, _$Child>(
          of keyPath: Swift.KeyPath<_$Root, _$Child?>, through presented: Swift.KeyPath<_$Root, Self?>
        ) -> CasePaths.CaseKeyPath<Self, _$Child>? {
      \(EnumItem.render(items) { $0.casePathTest }.joined(separator: "\n"))
          return nil
        }
      """ : ""
    // What the enum declares itself is left to it, as TCA's macro does: a modular app's root
    // writes its own `static var body`, and an enum may write its own `Action`.
    let declared = Set(enumDecl.memberBlock.members.compactMap { declaredName(of: $0.decl) })
    let actionCases = EnumItem.render(items) { "  case \($0.name)(\($0.actionPayload))" }
    let scopeCases = EnumItem.render(items) { "  case \($0.name)\($0.caseScopeParameters)" }
    let scopeSwitch = EnumItem.render(items) { $0.scopeSwitchCase }

    // The body's type is spelled out, as the builder composes it, and named `Body`: left to
    // associated-type inference, `Body` settles on the `Never` of reducers that implement
    // `reduce(into:action:)`. Cases under `#if` make the composition depend on the build, so
    // then the scopes are combined and erased to `Reduce`.
    let body: String
    let bodyType: String
    let reducerTypes = cases.compactMap(\.reducerType)
    let scopes = EnumItem.render(items) { $0.scope }
    if hasConditions {
      body = """
        ComposableCore.Reduce(
          ComposableCore.CombineReducers {
        \(scopes.joined(separator: "\n"))
          }
        )
        """
      bodyType = "ComposableCore.Reduce<Self.State, Self.Action>"
    } else if let first = reducerTypes.first {
      body = scopes.joined(separator: "\n")
      bodyType = reducerTypes.dropFirst().reduce(scopeType(first)) { sequence, next in
        "ComposableCore.ReducerBuilder<Self.State, Self.Action>._Sequence<\(sequence), \(scopeType(next))>"
      }
    } else {
      body = "ComposableCore.EmptyReducer<Self.State, Self.Action>()"
      bodyType = "ComposableCore.EmptyReducer<Self.State, Self.Action>"
    }

    // The generated enums declare every conformance themselves, and carry their case accessors
    // rather than `@_CaseAccessors`, so that no extension macro expands on them: each such
    // extension is added to the file while the compiler type-checks it, and with four enum
    // reducers in one file the compiler crashed (signal 11). `@CasePathable` and
    // `@ObservableState` still add their members, and add no extension for a conformance
    // already declared.
    let state: DeclSyntax =
      """
      @CasePathable
      @dynamicMemberLookup
      @ComposableCore.ObservableState
      \(raw: access)enum State: \(raw: stateInheritance), ComposableCore._CaseAccessible, \
      CasePaths.CasePathable, CasePaths.CasePathIterable, ComposableCore.ObservableState, \
      Observation.Observable {
        \(raw: access)typealias StateReducer = \(name)
      \(raw: stateCases.joined(separator: "\n"))
        \(raw: access)var _$isEphemeral: Bool {
      \(raw: ephemeralBody)
        }
        \(raw: access)var _$presentationIdentity: ComposableCore._PresentationIdentity {
      \(raw: identityBody)
        }\(raw: casePathFunction)
      \(raw: caseAccess(stateCases))
      }
      """
    let action: DeclSyntax = """
      @CasePathable
      @dynamicMemberLookup
      \(raw: access)enum Action: \(raw: actionInheritance)ComposableCore._CaseAccessible, \
      CasePaths.CasePathable, CasePaths.CasePathIterable {
      \(raw: actionCases.joined(separator: "\n"))
      \(raw: caseAccess(actionCases))
      }
      """
    let bodyDecls: [DeclSyntax] = [
      "\(raw: access)typealias Body = \(raw: bodyType)",
      """
      @ComposableCore.ReducerBuilder<Self.State, Self.Action>
      \(raw: access)static var body: Body {
      \(raw: body)
      }
      """,
    ]
    return (declared.contains("State") ? [] : [state])
      + (declared.contains("Action") ? [] : [action])
      + (declared.contains("body") || declared.contains("Body") ? [] : bodyDecls)
      + [
        """
        @CasePaths.CasePathable
        \(raw: access)enum CaseScope {
        \(raw: scopeCases.joined(separator: "\n"))
        }
        """,
        """
        @MainActor
        \(raw: access)static func scope(_ store: ComposableCore.Store<Self.State, Self.Action>) -> CaseScope {
          switch store.state {
        \(raw: scopeSwitch.joined(separator: "\n"))
          }
        }
        """,
      ]
  }

  /// The name a member declares, when it is a type, a type alias or a single property.
  static func declaredName(of decl: DeclSyntax) -> String? {
    if let type = decl.as(EnumDeclSyntax.self) { return type.name.text }
    if let type = decl.as(StructDeclSyntax.self) { return type.name.text }
    if let alias = decl.as(TypeAliasDeclSyntax.self) { return alias.name.text }
    if let variable = decl.as(VariableDeclSyntax.self), variable.bindings.count == 1 {
      return variable.bindings.first?.pattern.as(IdentifierPatternSyntax.self)?.identifier.text
    }
    return nil
  }
}

/// A member of an enum reducer that matters to the expansion: a case, or an `#if` around some.
enum EnumItem {
  case reducerCase(ReducerCase)
  /// Each clause's directive (`#if DEBUG`, `#elseif os(Linux)`, `#else`) and its items.
  case conditional([(directive: String, items: [EnumItem])])

  static func items(of members: MemberBlockItemListSyntax) -> [EnumItem] {
    members.flatMap { member -> [EnumItem] in
      if let caseDecl = member.decl.as(EnumCaseDeclSyntax.self) {
        return caseDecl.elements.map {
          .reducerCase(ReducerCase(element: $0, attributes: caseDecl.attributes))
        }
      }
      guard let ifConfig = member.decl.as(IfConfigDeclSyntax.self) else { return [] }
      let clauses = ifConfig.clauses.map { clause in
        let directive = [clause.poundKeyword.text, clause.condition?.trimmedDescription]
          .compactMap { $0 }.joined(separator: " ")
        guard case .decls(let members)? = clause.elements else {
          return (directive: directive, items: [EnumItem]())
        }
        return (directive: directive, items: items(of: members))
      }
      return [.conditional(clauses)]
    }
  }

  /// Every case, in every clause.
  var cases: [ReducerCase] {
    switch self {
    case .reducerCase(let reducerCase): [reducerCase]
    case .conditional(let clauses): clauses.flatMap { $0.items.flatMap(\.cases) }
    }
  }

  /// The lines `line` makes of each case, inside the same `#if` clauses as the cases.
  static func render(_ items: [EnumItem], _ line: (ReducerCase) -> String?) -> [String] {
    items.flatMap { item -> [String] in
      switch item {
      case .reducerCase(let reducerCase):
        return line(reducerCase).map { [$0] } ?? []
      case .conditional(let clauses):
        return clauses.flatMap { [$0.directive] + render($0.items, line) } + ["#endif"]
      }
    }
  }
}

func scopeType(_ reducer: String) -> String {
  "ComposableCore.Scope<Self.State, Self.Action, ComposableCore._BuiltReducer<\(reducer)>>"
}

/// The conformances `@Reducer(state: .equatable, action: .sendable, …)` asks for.
struct SynthesizedConformances {
  var state: [String] = []
  var action: [String] = []

  init(_ arguments: AttributeSyntax.Arguments?) {
    guard case .argumentList(let list)? = arguments else { return }
    var isAction = false
    for argument in list {
      if let label = argument.label?.text { isAction = label == "action" }
      guard let member = argument.expression.as(MemberAccessExprSyntax.self) else { continue }
      let name: String
      switch member.declName.baseName.text {
      case "codable": name = "Codable"
      case "decodable": name = "Decodable"
      case "encodable": name = "Encodable"
      case "equatable": name = "Equatable"
      case "hashable": name = "Hashable"
      case "sendable": name = "Sendable"
      default: continue
      }
      if isAction { action.append(name) } else { state.append(name) }
    }
  }
}

/// One case of an enum reducer and what it becomes in each generated type.
struct ReducerCase {
  enum Kind {
    /// `case detail(Detail)`: a child reducer, made by `initializer`.
    case reducer(type: String, initializer: String)
    /// `case alert(AlertState<Alert>)`: state only, whose actions are `action`.
    case ephemeral(action: String)
    /// Anything else: state only, no actions.
    case ignored
  }

  let name: String
  let kind: Kind
  let element: EnumCaseElementSyntax

  init(element: EnumCaseElementSyntax, attributes: AttributeListSyntax) {
    self.name = element.name.text
    self.element = element
    if attributes.contains(named: "ReducerCaseIgnored") {
      kind = .ignored
    } else if attributes.contains(named: "ReducerCaseEphemeral"),
      let type = Self.singlePayload(of: element)?.type
    {
      kind = .ephemeral(action: Self.ephemeralAction(of: type))
    } else {
      kind = Self.inferredKind(of: element)
    }
  }

  /// The payload of a case with exactly one unlabeled associated value.
  static func singlePayload(of element: EnumCaseElementSyntax) -> EnumCaseParameterSyntax? {
    guard let parameters = element.parameterClause?.parameters, parameters.count == 1,
      let parameter = parameters.first, parameter.firstName == nil
    else { return nil }
    return parameter
  }

  static func inferredKind(of element: EnumCaseElementSyntax) -> Kind {
    guard let parameter = singlePayload(of: element) else { return .ignored }
    let type = parameter.type
    let base: TypeSyntax? =
      type.as(IdentifierTypeSyntax.self).map(TypeSyntax.init)
      ?? type.as(MemberTypeSyntax.self).map(TypeSyntax.init)
    guard let base else { return .ignored }
    if ["AlertState", "ConfirmationDialogState"].contains(base.lastNameComponent) {
      return .ephemeral(action: ephemeralAction(of: type))
    }
    let initializer =
      parameter.defaultValue?.value.trimmedDescription ?? "\(type.trimmedDescription)()"
    return .reducer(type: type.trimmedDescription, initializer: initializer)
  }

  /// `AlertState<A>` sends `A`; another ephemeral type sends its `Action`.
  static func ephemeralAction(of type: TypeSyntax) -> String {
    let generic =
      type.as(IdentifierTypeSyntax.self)?.genericArgumentClause
      ?? type.as(MemberTypeSyntax.self)?.genericArgumentClause
    if let argument = generic?.arguments.first, generic?.arguments.count == 1 {
      return argument.argument.trimmedDescription
    }
    return "\(type.trimmedDescription).Action"
  }

  /// The case's parameters as written, without default values.
  var writtenParameters: String {
    guard let clause = element.parameterClause else { return "" }
    let parameters = clause.parameters.map { parameter in
      parameter.with(\.defaultValue, nil).with(\.trailingComma, nil).trimmedDescription
    }
    return "(\(parameters.joined(separator: ", ")))"
  }

  var stateParameters: String {
    switch kind {
    case .reducer(let type, _): "(\(type).State)"
    case .ephemeral, .ignored: writtenParameters
    }
  }

  var actionPayload: String {
    switch kind {
    case .reducer(let type, _): "\(type).Action"
    case .ephemeral(let action): action
    case .ignored: "Swift.Never"
    }
  }

  var caseScopeParameters: String {
    switch kind {
    case .reducer(let type, _): "(ComposableCore.StoreOf<\(type)>)"
    case .ephemeral, .ignored: writtenParameters
    }
  }

  /// The reducer type of a reducer case.
  var reducerType: String? {
    guard case .reducer(let type, _) = kind else { return nil }
    return type
  }

  /// The `Scope` that runs this case's reducer in the enum's body.
  var scope: String? {
    guard case .reducer(let type, let initializer) = kind else { return nil }
    return """
      \(scopeType(type))(\
      state: \\Self.State.Cases.\(name), action: \\Self.Action.Cases.\(name)) {
        ComposableCore._BuiltReducer(\(initializer))
      }
      """
  }

  /// The case of `_$isEphemeral`'s switch: the payload asked, when the case has one value (an
  /// alert, a nested enum reducer's state), through the overload of `_isEphemeral` its type
  /// picks; otherwise not ephemeral.
  var ephemeralSwitchCase: String {
    switchCase(withValue: "ComposableCore._isEphemeral(value)", otherwise: "false")
  }

  /// The test in `_$casePath` of a one-value case: whether the path is the presented property
  /// followed by this case, as `\.destination?.detail` is written; `nil` for other cases.
  var casePathTest: String? {
    guard ReducerCase.singlePayload(of: element) != nil else { return nil }
    return """
          if ComposableCore._isPayload(of: Self.\(name), _$Child.self),
            keyPath == presented.appending(path: \\Self?.?.\(name))
          {
            return (\\Self.Cases.\(name) as CasePaths.PartialCaseKeyPath<Self>)
              as? CasePaths.CaseKeyPath<Self, _$Child>
          }
      """
  }

  /// The case of `_$presentationIdentity`'s switch: the case's name, then what tells a
  /// one-value case's payload apart, through the overload of `_presentationIdentity` its type
  /// picks.
  var identitySwitchCase: String {
    // `case `default``'s name, without the backticks that let it be written.
    let label = ".case(\"\(name.filter { $0 != "`" })\")"
    return switchCase(
      withValue: "\(label) + ComposableCore._presentationIdentity(of: value)", otherwise: label)
  }

  /// A case of a generated `switch self`, returning `withValue` (where the case's one value is
  /// bound to `value`) when the case has one unlabeled value, `otherwise` for any other case.
  func switchCase(withValue: String, otherwise: String) -> String {
    guard ReducerCase.singlePayload(of: element) != nil else {
      return """
            case .\(name):
              return \(otherwise)
        """
    }
    return """
          case .\(name)(let value):
            return \(withValue)
      """
  }

  /// The case of `scope(_:)`'s switch: a child store for a reducer, the values otherwise.
  var scopeSwitchCase: String {
    if case .reducer = kind {
      return """
          case .\(name):
            return .\(name)(store.scope(state: \\.\(name), action: \\.\(name))!)
        """
    }
    guard let parameters = element.parameterClause?.parameters, !parameters.isEmpty else {
      return """
          case .\(name):
            return .\(name)
        """
    }
    let bindings = parameters.indices.map {
      "v\(parameters.distance(from: parameters.startIndex, to: $0))"
    }
    let arguments = zip(parameters, bindings).map { parameter, binding in
      parameter.firstName.map { "\($0.text): \(binding)" } ?? binding
    }
    return """
        case let .\(name)(\(bindings.joined(separator: ", "))):
          return .\(name)(\(arguments.joined(separator: ", ")))
      """
  }
}
