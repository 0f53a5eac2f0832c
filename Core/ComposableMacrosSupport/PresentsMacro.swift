import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxBuilder
import SwiftSyntaxMacros

/// `@Presents var destination: Destination.State?`: stores the property in a
/// `PresentationState` (`_destination`), reads and writes it through accessors, and projects the
/// wrapper as `$destination` for `ifLet(\.$destination, action:)`. Unlike the property wrapper
/// it is made of accessors, so other macros of the type (observation) can see through it.
public enum PresentsMacro {}

extension PresentsMacro {
  /// The property's name, its optional type and the wrapped type, or a diagnostic saying why the
  /// property cannot be presented.
  struct Property {
    let name: TokenSyntax
    let wrapped: String
    let initializer: ExprSyntax?
    let access: String
  }

  static func property(
    _ declaration: some DeclSyntaxProtocol,
    in context: some MacroExpansionContext,
    diagnose: Bool
  ) -> Property? {
    func fail(_ node: some SyntaxProtocol, _ message: String, id: String) -> Property? {
      if diagnose {
        context.diagnose(Diagnostic(node: node, message: MacroMessage(message: message, id: id)))
      }
      return nil
    }
    guard let variable = declaration.as(VariableDeclSyntax.self) else {
      return fail(declaration, "'@Presents' applies to a 'var' property", id: "notVariable")
    }
    guard variable.bindingSpecifier.tokenKind == .keyword(.var) else {
      return fail(variable.bindingSpecifier, "'@Presents' requires 'var'", id: "notVar")
    }
    guard variable.bindings.count == 1, let binding = variable.bindings.first,
      let identifier = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier
    else {
      return fail(variable, "'@Presents' applies to one property at a time", id: "manyBindings")
    }
    guard binding.accessorBlock == nil else {
      return fail(binding, "'@Presents' cannot be applied to a computed property", id: "computed")
    }
    guard let type = binding.typeAnnotation?.type else {
      return fail(
        binding,
        "'@Presents' needs the property's optional type written out, e.g. 'Destination.State?'",
        id: "noType"
      )
    }
    let wrapped: String
    if let optional = type.as(OptionalTypeSyntax.self) {
      wrapped = optional.wrappedType.trimmedDescription
    } else if let optional = type.as(ImplicitlyUnwrappedOptionalTypeSyntax.self) {
      wrapped = optional.wrappedType.trimmedDescription
    } else if let identifier = type.as(IdentifierTypeSyntax.self),
      identifier.name.text == "Optional",
      let argument = identifier.genericArgumentClause?.arguments.first
    {
      wrapped = argument.argument.trimmedDescription
    } else {
      return fail(
        type, "'@Presents' requires an optional type: nil means not presented", id: "notOptional")
    }
    return Property(
      name: identifier.trimmed,
      wrapped: wrapped,
      initializer: binding.initializer?.value,
      access: variable.modifiers.accessPrefix
    )
  }
}

extension PresentsMacro {
  /// Whether the property is declared in an `@ObservableState` type, whose registrar it reports
  /// reads and changes to.
  static func isInObservableState(_ context: some MacroExpansionContext) -> Bool {
    guard let type = context.lexicalContext.first else { return false }
    let attributes =
      type.as(StructDeclSyntax.self)?.attributes ?? type.as(EnumDeclSyntax.self)?.attributes
    return attributes?.contains(named: "ObservableState") ?? false
  }
}

extension PresentsMacro: AccessorMacro {
  /// Makes the property read and write the presentation state it is stored in.
  public static func expansion(
    of node: AttributeSyntax,
    providingAccessorsOf declaration: some DeclSyntaxProtocol,
    in context: some MacroExpansionContext
  ) throws -> [AccessorDeclSyntax] {
    guard let property = property(declaration, in: context, diagnose: true) else { return [] }
    if isInObservableState(context) {
      let storage = "_\(property.name.text.withoutBackticks)"
      return ObservationStateTrackedMacro.observedAccessors(
        property: property.name.text,
        storage: "\(storage).wrappedValue",
        storageRoot: storage,
        initialize: "ComposableCore.PresentationState(wrappedValue: initialValue)",
        comparesValues: false
      )
    }
    // Outside observable state, `$name` itself is the storage: a stored property, which
    // `ifLet(\.$name, …)` reaches directly rather than through a getter and a setter.
    let storage = "$\(property.name.text.withoutBackticks)"
    return [
      """
      @storageRestrictions(initializes: \(raw: storage))
      init(initialValue) {
        \(raw: storage) = ComposableCore.PresentationState(wrappedValue: initialValue)
      }
      """,
      """
      get {
        \(raw: storage).wrappedValue
      }
      """,
      """
      set {
        \(raw: storage).wrappedValue = newValue
      }
      """,
    ]
  }
}

extension PresentsMacro: PeerMacro {
  /// Adds `$name` and the `_name` storage.
  public static func expansion(
    of node: AttributeSyntax,
    providingPeersOf declaration: some DeclSyntaxProtocol,
    in context: some MacroExpansionContext
  ) throws -> [DeclSyntax] {
    // The accessor role reports what is wrong; this one only declines.
    guard let property = property(declaration, in: context, diagnose: false) else { return [] }
    let name = property.name.text
    let bare = name.withoutBackticks
    let stateType = "ComposableCore.PresentationState<\(property.wrapped)>"
    // Like a stored optional, the property starts out `nil` unless it says otherwise.
    let initialValue = property.initializer?.trimmedDescription ?? "nil"
    if isInObservableState(context) {
      // `$name` is observed as `name`: both are the same presented state.
      let accessors = ObservationStateTrackedMacro.observingAccessors(
        keyPath: name, storage: "_\(bare)", comparesValues: false
      ).map(\.description).joined(separator: "\n")
      return [
        """
        \(raw: property.access)var $\(raw: bare): \(raw: stateType) {
        \(raw: accessors)
        }
        """,
        """
        @ComposableCore.ObservationStateIgnored
        private var _\(raw: bare) = \(raw: stateType)(wrappedValue: \(raw: initialValue))
        """,
      ]
    }
    return [
      "\(raw: property.access)var $\(raw: bare) = \(raw: stateType)(wrappedValue: \(raw: initialValue))"
    ]
  }
}

/// `@_PresentsStorage`, which `@Reducer` attaches to a `State` struct that presents children but
/// is not `@ObservableState` (which names its storage itself): names the stored property behind
/// each presented `name`, `$name` for `@Presents` and `_name` for `@PresentationState`, so that a
/// presented child's store reads it after each action without a key path through the getter.
public enum PresentsStorageMacro: ExtensionMacro {
  /// Conforms the struct to `_PresentationStorage`, unless it declares that itself.
  public static func expansion(
    of node: AttributeSyntax,
    attachedTo declaration: some DeclGroupSyntax,
    providingExtensionsOf type: some TypeSyntaxProtocol,
    conformingTo protocols: [TypeSyntax],
    in context: some MacroExpansionContext
  ) throws -> [ExtensionDeclSyntax] {
    guard let structDecl = declaration.as(StructDeclSyntax.self),
      !structDecl.inheritanceClause.contains("_PresentationStorage")
    else { return [] }
    return storageExtension(
      of: type,
      access: declaration.modifiers.accessPrefix,
      availability: declaration.attributes.availability,
      storage: presentedProperties(of: structDecl)
    )
  }

  /// The `_PresentationStorage` conformance of `type`, answering each of an entry's paths (names
  /// of properties of the type) with its storage; none when there is nothing to name.
  static func storageExtension(
    of type: some TypeSyntaxProtocol,
    access: String,
    availability: AttributeListSyntax,
    storage: [(paths: [String], storage: String)]
  ) -> [ExtensionDeclSyntax] {
    guard !storage.isEmpty else { return [] }
    let lookups = storage.map { entry in
      let test = entry.paths.map { "keyPath == \\Self.\($0)" }.joined(separator: " || ")
      return "    if \(test) { return \\Self.\(entry.storage) }"
    }
    // A presented property's own name (not its `$name`), followed by a case of its state.
    let caseReaders = storage.compactMap { entry in
      entry.paths.first { !$0.hasPrefix("$") }.map { name in
        """
            if let reader = ComposableCore._presentedCaseReader(
              keyPath, through: \\Self.\(name), storage: \\Self.\(entry.storage)
            ) {
              return reader
            }
        """
      }
    }
    let decl: DeclSyntax = """
      \(availability)extension \(type.trimmed): ComposableCore._PresentationStorage {
        \(raw: access)static func _$presentationStorage(_ keyPath: Swift.AnyKeyPath) -> Swift.AnyKeyPath? {
      \(raw: lookups.joined(separator: "\n"))
          return nil
        }
        \(raw: access)static func _$presentedCase<_$Child>(_ keyPath: Swift.AnyKeyPath, child: _$Child.Type) -> Any? {
          guard let keyPath = keyPath as? Swift.KeyPath<Self, _$Child?> else {
            return nil
          }
      \(raw: caseReaders.joined(separator: "\n"))
          return nil
        }
      }
      """
    return [decl.cast(ExtensionDeclSyntax.self)]
  }

  /// The paths to each presented property of a plain struct, and the stored property behind
  /// them. A `@Presents` property's `$name` is that storage itself; a `@PresentationState`
  /// wrapper's `$name` is its computed projection, which `ifLet(\.$name, …)` would otherwise go
  /// through on every action.
  static func presentedProperties(
    of structDecl: StructDeclSyntax
  ) -> [(paths: [String], storage: String)] {
    structDecl.singleNameProperties.compactMap { variable, name in
      let bare = name.withoutBackticks
      if variable.attributes.contains(named: "Presents") { return ([name], "$\(bare)") }
      if variable.attributes.contains(named: "PresentationState") {
        return ([name, "$\(bare)"], "_\(bare)")
      }
      return nil
    }
  }
}
