import Foundation
import Testing
@testable import NotibaseCore

/// The shared vectors, copied unchanged from the spec's source, are the contract with every other
/// implementation (the server, the iOS extension, SDKs in other languages).
@Suite("notibase-category/1")
struct CategoryIdentifierTests {
    struct VectorFile: Decodable {
        let spec: String
        let vectors: [Vector]
    }

    struct Vector: Decodable, CustomTestStringConvertible, Sendable {
        let name: String
        let nb_buttons: [Button]
        let canonical_utf8: String
        let identifier: String
        var testDescription: String { name }
    }

    static let file: VectorFile = {
        let url = Bundle.module.url(forResource: "category-identifiers", withExtension: "json", subdirectory: "Fixtures")!
        return try! JSONDecoder().decode(VectorFile.self, from: Data(contentsOf: url))
    }()

    @Test func vectorFileNamesThisSpec() {
        #expect(Self.file.spec == CategoryIdentifier.spec)
        #expect(Self.file.vectors.count >= 17)
    }

    @Test(arguments: file.vectors)
    func canonicalBytes(_ vector: Vector) {
        let bytes = CategoryIdentifier.canonicalBytes(of: vector.nb_buttons)
        #expect(bytes == Array(vector.canonical_utf8.utf8))
    }

    @Test(arguments: file.vectors)
    func identifier(_ vector: Vector) {
        #expect(CategoryIdentifier.derive(from: vector.nb_buttons) == vector.identifier)
    }

    @Test func fnvMatchesPublishedValues() {
        // Published FNV-1a 64 test values: "" and "a".
        #expect(FNV1a64().value == 0xcbf2_9ce4_8422_2325)
        var hasher = FNV1a64()
        hasher.combine(contentsOf: Array("a".utf8))
        #expect(hasher.value == 0xaf63_dc4c_8601_ec8c)
        #expect(hasher.hexDigits == "af63dc4c8601ec8c")
    }

    @Test func derivedShape() {
        #expect(CategoryIdentifier.isDerived("nb_40398f050d7a9fdd"))
        #expect(!CategoryIdentifier.isDerived("nb_40398F050D7A9FDD"))
        #expect(!CategoryIdentifier.isDerived("ORDER_UPDATE"))
        #expect(!CategoryIdentifier.isDerived("nb_40398f050d7a9fd"))
        #expect(!CategoryIdentifier.isDerived("nb_40398f050d7a9fdd0"), "one digit too many")
        for lookalike in ["nc_40398f050d7a9fdd", "mb_40398f050d7a9fdd", "nb-40398f050d7a9fdd", "nb_40398f050d7a9fdg", "nb_40398f050d7a9f\u{e9}"] {
            #expect(!CategoryIdentifier.isDerived(lookalike), "\(lookalike)")
        }
        #expect(CategoryIdentifier.isDerived(CategoryIdentifier.derive(from: [Button(id: "a", text: "A")])))
    }
}
