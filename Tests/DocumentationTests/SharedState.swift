import ComposableTestSupport
import Foundation
import Testing

// The code of the Shared state article (ComposableSharing.docc/SharedState.md), as it is there.

@Reducer
struct Settings {
  @ObservableState
  struct State: Equatable {
    @Shared(.soundsOn) var soundsOn
  }

  enum Action: Equatable {
    case soundsToggled
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .soundsToggled:
        state.$soundsOn.withLock { $0.toggle() }
        return .none
      }
    }
  }
}

extension SharedReaderKey where Self == AppStorageKey<Bool>.Default {
  static var soundsOn: Self { Self[.appStorage("soundsOn"), default: true] }
}

@MainActor
struct SettingsTests {
  @Test func aToggleIsAssertedLikeState() async {
    let store = TestStore(initialState: Settings.State()) { Settings() }
    await store.send(.soundsToggled) {
      $0.$soundsOn.withLock { $0 = false }
    }
  }
}

struct Todo: Codable, Equatable, Identifiable, Sendable {
  var id: UUID
  var title = ""
}

struct User: Equatable, Sendable {
  let id = UUID()
  var name = "Ada"
}

extension SharedReaderKey where Self == AppStorageKey<Bool>.Default {
  static var isOn: Self { Self[.appStorage("isOn"), default: false] }
}

@MainActor
struct SharedDeclarationTests {
  @Test func theDeclarationsOfTheArticle() throws {
    let todoID = UUID()
    @Shared(.fileStorage(.documentsDirectory.appending(component: "todos.json")))
    var todos: IdentifiedArrayOf<Todo> = [Todo(id: todoID)]
    // The article's declarations, as it shows them.
    @Shared(.inMemory("events")) var events: [String] = []  // this process only
    @Shared(.appStorage("soundsOn")) var soundsOn = true  // the settings file
    @SharedReader(.appStorage("soundsOn")) var soundsOnToo = true  // read-only
    @Shared(.isOn) var isOn  // the key's own default
    @Shared(value: User()) var user  // a reference, not persisted
    $events.withLock { $0.append("opened") }  // every holder sees it at once
    let name: Shared<String> = $user.name  // a part of another shared value
    let id: SharedReader<UUID> = $user.id  // a `let` part: read only
    let isEmpty: SharedReader<Bool> = $events.read { $0.isEmpty }  // computed, kept up to date
    let todo: Shared<Todo>? = Shared($todos[id: todoID])  // a part that may be gone
    let each: [Shared<Todo>] = Array($todos)  // one per element of an IdentifiedArray

    #expect(events == ["opened"])
    #expect(soundsOn && soundsOnToo)
    #expect(isOn == false)
    #expect(name.wrappedValue == "Ada")
    #expect(id.wrappedValue == user.id)
    #expect(isEmpty.wrappedValue == false)
    #expect(todo?.wrappedValue.id == todoID)
    #expect(each.map(\.wrappedValue) == Array(todos))
  }
}
