// Changes todos, contacts and a `.fileStorage` value in DIR for ever, from number START on, and
// prints a line for each change once it is saved: `crash-writer DIR START`. The crash tests kill
// it at random moments and check that every printed change is on disk, whole.
import ComposableSharing
import ContactsClientLive
import Foundation
import TodosClientLive

let arguments = CommandLine.arguments
guard arguments.count == 3, let start = Int(arguments[2]) else {
  FileHandle.standardError.write(Data("usage: crash-writer DIR START\n".utf8))
  exit(64)
}
let directory = URL(fileURLWithPath: arguments[1])
let todos = TodosClient.live(file: directory.appendingPathComponent("todos.json"))
let contacts = ContactsClient.live(file: directory.appendingPathComponent("contacts.json"))
let value = Shared(wrappedValue: 0, .fileStorage(directory.appendingPathComponent("value.json")))

/// Says a change is saved: unbuffered, so what the test reads is exactly what was acknowledged.
func acknowledge(_ line: String) {
  FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

var number = start
while true {
  try await todos.apply(
    .add(TodoItem(id: UUID(), title: "todo \(number)", createdAt: Date())))
  acknowledge("todo \(number)")
  try await contacts.apply(.save(Contact(id: UUID(), name: "contact \(number)")))
  acknowledge("contact \(number)")
  value.withLock { $0 = number }
  try await value.save()
  acknowledge("value \(number)")
  number += 1
}
