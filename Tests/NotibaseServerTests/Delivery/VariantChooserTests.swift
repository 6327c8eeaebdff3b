import Testing
@testable import NotibaseServer
@testable import NotibaseDomain
@testable import NotibaseStore
@testable import NotibaseSQLite
@testable import NotibasePostgres
@testable import NotibaseHTTP
@testable import NotibaseOutbound
@testable import NotibaseWebhooks
@testable import NotibaseServices
@testable import NotibaseAPI
@testable import NotibaseDelivery

@Suite("Language variants")
struct VariantChooserTests {
    let chooser = VariantChooser(locales: ["fr", "pt-BR", "de_CH"])

    @Test(arguments: [
        ("fr-FR", "fr"), ("fr", "fr"), ("FR_ca", "fr"), ("pt-BR", "pt-BR"), ("pt_br", "pt-BR"),
        ("de-CH", "de_CH"), ("de-DE", nil), ("pt-PT", nil), ("en-US", nil),
    ] as [(String, String?)])
    func picksExactThenLanguageThenDefault(locale: String, expected: String?) {
        #expect(chooser.variant(for: locale) == expected)
    }

    @Test func deviceWithoutLocaleGetsTheDefault() {
        #expect(chooser.variant(for: nil) == nil)
        #expect(VariantChooser(locales: []).variant(for: "fr") == nil)
    }
}
