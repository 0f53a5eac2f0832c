// A test file imports one module, as with TCA's `ComposableArchitecture`.
@_exported import ComposableCore
