// One import for a feature, as TCA's: the Point-Free building blocks, and the dependency macros
// (`@DependencyClient`, `@DependencyEndpoint`) client code writes beside ours.
@_exported import CasePaths
@_exported import Clocks
@_exported import ComposableSharing
@_exported import ConcurrencyExtras
@_exported import Dependencies
@_exported import DependenciesMacros
@_exported import IdentifiedCollections
@_exported import Observation

// Combine's names on Linux, for Combine-era effects, schedulers and `@Dependency(\.mainQueue)`
// (see the README's porting section); on Apple platforms a feature imports Combine itself.
#if canImport(OpenCombineShim)
  @_exported import OpenCombineShim
#endif
