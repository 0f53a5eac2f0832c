@_exported import CasePaths
@_exported import Clocks
@_exported import ConcurrencyExtras
@_exported import Dependencies
@_exported import IdentifiedCollections
// `@DependencyClient` and `@DependencyEndpoint`, which client code writes beside our macros.
@_exported import DependenciesMacros
