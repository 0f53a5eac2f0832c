@_exported import CasePaths
@_exported import Clocks
@_exported import ConcurrencyExtras
@_exported import Dependencies
@_exported import IdentifiedCollections
