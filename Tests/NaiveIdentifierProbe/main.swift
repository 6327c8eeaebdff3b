// Test double: derives a category identifier the way the seed article warns against, from Swift's
// `hashValue`, which is seeded per process. Prints it for the buttons given as arguments.
let buttons = CommandLine.arguments.dropFirst().joined(separator: "|")
print("nb_" + String(UInt(bitPattern: buttons.hashValue), radix: 16))
