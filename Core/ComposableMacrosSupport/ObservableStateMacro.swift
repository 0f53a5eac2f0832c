import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxBuilder
import SwiftSyntaxMacros

/// `@ObservableState`: on a struct, a registrar and an identity, and `@ObservationStateTracked`
/// on every stored `var`, so each property reports its reads and changes on its own. On an enum,
/// an identity that follows the case and the case's observable payload.
public enum ObservableStateMacro {}

/// Attributes after which a stored property is left alone: opted out, already tracked, or
/// stored by another macro or wrapper that does its own observation.
private let untrackedAttributes: Set<String> = [
  "ObservationStateIgnored", "ObservationStateTracked", "Presents", "PresentationState",
  "Shared", "SharedReader",
]

extension ObservableStateMacro: MemberMacro {
  /// Adds the registrar and `_$id` to a struct, `_$id` to an enum.
  public static func expansion(
    of node: AttributeSyntax,
    providingMembersOf declaration: some DeclGroupSyntax,
    conformingTo protocols: [TypeSyntax],
    in context: some MacroExpansionContext
  ) throws -> [DeclSyntax] {
    let access = declaration.modifiers.accessPrefix
    if declaration.is(StructDeclSyntax.self) {
      return [
        """
        @ComposableCore.ObservationStateIgnored
        var _$observationRegistrar = ComposableCore.ObservationStateRegistrar()
        """,
        """
        \(raw: access)var _$id: ComposableCore.ObservableStateID {
          _$observationRegistrar.id
        }
        """,
        """
        \(raw: access)mutating func _$willModify() {
          _$observationRegistrar._$willModify()
        }
        """,
      ]
    }
    if let enumDecl = declaration.as(EnumDeclSyntax.self) {
      var tag = 0
      let cases = EnumItem.render(EnumItem.items(of: enumDecl.memberBlock.members)) { item in
        defer { tag += 1 }
        let parameters = item.element.parameterClause?.parameters ?? []
        switch parameters.count {
        case 0:
          return
            "case .\(item.name): return ComposableCore.ObservableStateID._$caseWithoutPayload._$tag(\(tag))"
        case 1:
          return
            "case .\(item.name)(let state): return ComposableCore._$stateID(of: state)._$tag(\(tag))"
        default:
          return "case .\(item.name): return ComposableCore.ObservableStateID()._$tag(\(tag))"
        }
      }
      guard !cases.isEmpty else {
        return [
          "\(raw: access)var _$id: ComposableCore.ObservableStateID { ComposableCore.ObservableStateID._$caseWithoutPayload }"
        ]
      }
      // A payload that is observable state takes a new identity, and with it the case.
      let renewals = EnumItem.render(EnumItem.items(of: enumDecl.memberBlock.members)) { item in
        let parameters = item.element.parameterClause?.parameters ?? []
        guard parameters.count == 1, let parameter = parameters.first else {
          return "case .\(item.name): break"
        }
        let label = parameter.firstName.map { $0.tokenKind == .wildcard ? "" : "\($0.text): " }
        return """
          case .\(item.name)(var state): ComposableCore._$willModify(&state)
          self = .\(item.name)(\(label ?? "")state)
          """
      }
      return [
        """
        \(raw: access)var _$id: ComposableCore.ObservableStateID {
          switch self {
          \(raw: cases.joined(separator: "\n"))
          }
        }
        """,
        """
        \(raw: access)mutating func _$willModify() {
          switch self {
          \(raw: renewals.joined(separator: "\n"))
          }
        }
        """,
      ]
    }
    context.diagnose(
      Diagnostic(
        node: node,
        message: MacroMessage(
          message: "'@ObservableState' applies to a struct or an enum: state is a value",
          id: "notValueType"
        )
      )
    )
    return []
  }
}

extension ObservableStateMacro: MemberAttributeMacro {
  /// Marks each stored `var` of a struct `@ObservationStateTracked`.
  public static func expansion(
    of node: AttributeSyntax,
    attachedTo declaration: some DeclGroupSyntax,
    providingAttributesFor member: some DeclSyntaxProtocol,
    in context: some MacroExpansionContext
  ) throws -> [AttributeSyntax] {
    guard declaration.is(StructDeclSyntax.self),
      let variable = member.as(VariableDeclSyntax.self),
      variable.isTrackable
    else { return [] }
    return ["@ObservationStateTracked"]
  }
}

extension ObservableStateMacro: ExtensionMacro {
  /// Adds `ObservableState` and `Observable`, unless the type declares them.
  public static func expansion(
    of node: AttributeSyntax,
    attachedTo declaration: some DeclGroupSyntax,
    providingExtensionsOf type: some TypeSyntaxProtocol,
    conformingTo protocols: [TypeSyntax],
    in context: some MacroExpansionContext
  ) throws -> [ExtensionDeclSyntax] {
    guard declaration.is(StructDeclSyntax.self) || declaration.is(EnumDeclSyntax.self),
      !declaration.inheritanceClause.contains("ObservableState")
    else { return [] }
    let availability = declaration.attributes.availability
    let decl: DeclSyntax = """
      \(availability)extension \(type.trimmed): ComposableCore.ObservableState, Observation.Observable {}
      """
    let storage =
      presentationStorage(of: declaration, type: type, availability: availability)
      + trackedStorage(of: declaration, type: type, availability: availability)
    guard let structDecl = declaration.as(StructDeclSyntax.self),
      !structDecl.inheritanceClause.contains("CustomReflectable"),
      !structDecl.inheritanceClause.contains("CustomDumpReflectable")
    else { return [decl.cast(ExtensionDeclSyntax.self)] + storage }
    // Reflection would show the storage (`_count`, `_$observationRegistrar`); test diffs and
    // dumps should show the properties as they are written.
    let children = structDecl.memberBlock.members.flatMap { member -> [String] in
      guard let variable = member.decl.as(VariableDeclSyntax.self), !variable.modifiers.isStatic
      else { return [] }
      return variable.bindings.compactMap { binding in
        guard binding.accessorBlock == nil,
          let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.trimmed.text
        else { return nil }
        let bare = name.withoutBackticks
        if variable.attributes.contains(named: "Presents") {
          return "\"\(bare)\": _\(bare).wrappedValue as Any"
        }
        if variable.isTrackable {
          return "\"\(bare)\": _\(bare) as Any"
        }
        return "\"\(bare)\": \(name) as Any"
      }
    }
    let access = declaration.modifiers.accessPrefix
    let mirror: DeclSyntax = """
      \(availability)extension \(type.trimmed): Swift.CustomReflectable {
        \(raw: access)var customMirror: Swift.Mirror {
          Swift.Mirror(
            self,
            children: [\(raw: children.isEmpty ? ":" : children.joined(separator: ", "))],
            displayStyle: .struct
          )
        }
      }
      """
    return [decl.cast(ExtensionDeclSyntax.self), mirror.cast(ExtensionDeclSyntax.self)] + storage
  }

  /// For a struct with `@Presents` properties, the storage behind each `$name` and `name`, where
  /// a presented child's store reads it after each action without the observed accessors.
  static func presentationStorage(
    of declaration: some DeclGroupSyntax,
    type: some TypeSyntaxProtocol,
    availability: AttributeListSyntax
  ) -> [ExtensionDeclSyntax] {
    guard let structDecl = declaration.as(StructDeclSyntax.self) else { return [] }
    let names = structDecl.propertyNames { $0.attributes.contains(named: "Presents") }
    return PresentsStorageMacro.storageExtension(
      of: type,
      access: declaration.modifiers.accessPrefix,
      availability: availability,
      storage: names.map {
        (paths: ["$\($0.withoutBackticks)", $0], storage: "_\($0.withoutBackticks)")
      }
    )
  }
}

extension ObservableStateMacro {
  /// For a struct, the `_TrackedStorage` conformance naming the storage behind each tracked
  /// property and each presented `$name`: a reducer operator (`Scope(state: \.child, …)`,
  /// `ifLet(\.$destination, …)`) changes a child in place there, and tells the property's
  /// observers itself, instead of copying the child out through the getter and back through the
  /// setter on every action.
  static func trackedStorage(
    of declaration: some DeclGroupSyntax,
    type: some TypeSyntaxProtocol,
    availability: AttributeListSyntax
  ) -> [ExtensionDeclSyntax] {
    guard let structDecl = declaration.as(StructDeclSyntax.self) else { return [] }
    // A presented property's `$name` is tracked as `name` is: its readers read `name`.
    let tracked = structDecl.propertyNames { $0.isTrackable }.map { (path: $0, name: $0) }
    let presented = structDecl.propertyNames { $0.attributes.contains(named: "Presents") }
      .map { (path: "$\($0.withoutBackticks)", name: $0) }
    let properties = tracked + presented
    guard !properties.isEmpty else { return [] }
    let lookups = properties.map { property in
      """
          if keyPath == \\Self.\(property.path) {
            return ComposableCore._TrackedProperty(
              storage: \\Self._\(property.name.withoutBackticks),
              identity: { ComposableCore._$stateIdentity($0.pointee)._erased },
              announce: {
                let registrar = $0._$observationRegistrar
                registrar.didChange(&$0, keyPath: \\.\(property.name))
              }
            )
          }
      """
    }
    let access = declaration.modifiers.accessPrefix
    let decl: DeclSyntax = """
      \(availability)extension \(type.trimmed): ComposableCore._TrackedStorage {
        \(raw: access)static func _$trackedProperty(_ keyPath: Swift.AnyKeyPath) -> ComposableCore._TrackedProperty? {
      \(raw: lookups.joined(separator: "\n"))
          return nil
        }
      }
      """
    return [decl.cast(ExtensionDeclSyntax.self)]
  }
}

extension VariableDeclSyntax {
  /// A stored instance `var` with one name and no attribute that stores or observes it.
  fileprivate var isTrackable: Bool {
    guard bindingSpecifier.tokenKind == .keyword(.var), !modifiers.isStatic,
      !modifiers.contains(where: { $0.name.tokenKind == .keyword(.lazy) }),
      bindings.count == 1, let binding = bindings.first,
      binding.pattern.is(IdentifierPatternSyntax.self)
    else { return false }
    // Computed properties and stored ones with observers (`didSet`) are left as written.
    guard binding.accessorBlock == nil else { return false }
    return !attributes.contains { element in
      guard case .attribute(let attribute) = element else { return false }
      return untrackedAttributes.contains(attribute.attributeName.lastNameComponent)
    }
  }
}

/// `@ObservationStateTracked`: turns a stored property of observable state into accessors over
/// `_name` storage that report reads and changes to the state's registrar.
public enum ObservationStateTrackedMacro {}

extension ObservationStateTrackedMacro: AccessorMacro {
  /// The `init`, `get`, `set` and `_modify` accessors.
  public static func expansion(
    of node: AttributeSyntax,
    providingAccessorsOf declaration: some DeclSyntaxProtocol,
    in context: some MacroExpansionContext
  ) throws -> [AccessorDeclSyntax] {
    guard let variable = declaration.as(VariableDeclSyntax.self),
      let name = variable.bindings.first?.pattern.as(IdentifierPatternSyntax.self)?.identifier,
      variable.bindings.first?.accessorBlock == nil
    else { return [] }
    return observedAccessors(
      property: name.trimmed.text, storage: "_\(name.trimmed.text.withoutBackticks)")
  }

  /// Accessors of `property` over `storage` (a stored property or a path into one) that report
  /// to `_$observationRegistrar`; `initialize` is what the `init` accessor stores.
  static func observedAccessors(
    property: String,
    storage: String,
    storageRoot: String? = nil,
    initialize: String = "initialValue",
    comparesValues: Bool = true
  ) -> [AccessorDeclSyntax] {
    let root = storageRoot ?? storage
    return [
      """
      @storageRestrictions(initializes: \(raw: root))
      init(initialValue) {
        \(raw: root) = \(raw: initialize)
      }
      """
    ] + observingAccessors(keyPath: property, storage: storage, comparesValues: comparesValues)
  }

  /// The `get`, `set` and `_modify` accessors over `storage` that report to
  /// `_$observationRegistrar` as the property at `\.keyPath`. The state is handed to the
  /// registrar `inout`, so that telling observers does not copy it.
  static func observingAccessors(
    keyPath: String, storage: String, comparesValues: Bool = true
  ) -> [AccessorDeclSyntax] {
    // As TCA's: a tracked property's setter is silent when given an equal value; a presented
    // one's compares identities only.
    let changed =
      "ComposableCore._$stateIdentity(\(storage))._changed(to: ComposableCore._$stateIdentity(newValue))"
      + (comparesValues ? " && ComposableCore._$differs(\(storage), newValue)" : "")
    return [
      """
      get {
        _$observationRegistrar.access(self, keyPath: \\.\(raw: keyPath))
        return \(raw: storage)
      }
      """,
      """
      set {
        let _$registrar = _$observationRegistrar
        let _$changed = \(raw: changed)
        _$registrar.mutate(&self, keyPath: \\.\(raw: keyPath), changed: _$changed) {
          $0.\(raw: storage) = newValue
        }
      }
      """,
      """
      _modify {
        ComposableCore._$willModify(&\(raw: storage))
        let oldIdentity = ComposableCore._$stateIdentity(\(raw: storage))
        defer {
          let _$registrar = _$observationRegistrar
          _$registrar.didModify(&self, keyPath: \\.\(raw: keyPath), from: oldIdentity, to: ComposableCore._$stateIdentity(\(raw: storage)))
        }
        yield &\(raw: storage)
      }
      """,
    ]
  }
}

extension ObservationStateTrackedMacro: PeerMacro {
  /// The `_name` storage, private and ignored by observation.
  public static func expansion(
    of node: AttributeSyntax,
    providingPeersOf declaration: some DeclSyntaxProtocol,
    in context: some MacroExpansionContext
  ) throws -> [DeclSyntax] {
    guard let variable = declaration.as(VariableDeclSyntax.self),
      let binding = variable.bindings.first,
      let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier,
      binding.accessorBlock == nil
    else { return [] }
    let type = binding.typeAnnotation.map { ": \($0.type.trimmedDescription)" } ?? ""
    let initializer = binding.initializer.map { " = \($0.value.trimmedDescription)" } ?? ""
    return [
      """
      @ComposableCore.ObservationStateIgnored
      private var _\(raw: name.trimmed.text.withoutBackticks)\(raw: type)\(raw: initializer)
      """
    ]
  }
}

/// `@ObservationStateIgnored` (and the markers like it): expands to nothing; `@ObservableState`
/// reads it.
public enum ObservationStateIgnoredMacro: PeerMacro {
  /// Nothing: the attribute is only read.
  public static func expansion(
    of node: AttributeSyntax,
    providingPeersOf declaration: some DeclSyntaxProtocol,
    in context: some MacroExpansionContext
  ) throws -> [DeclSyntax] {
    []
  }
}
