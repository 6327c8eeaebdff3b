import Foundation

/// Credentials that pass the upload checks (keys made once with OpenSSL for these tests, never
/// used anywhere else), and uploads built from them with one field changed.
enum TestCredentials {
    /// A P-256 key in PKCS#8 PEM, as in an APNs .p8 file.
    static let p256Key = "-----BEGIN PRIVATE KEY-----\nMIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgDWerbqRrTrl31TSR\nuLA+kZ4/xyF/rCR2i8Saa646/VKhRANCAAR1ziEVAN4oHiOG8NzZuspzvV9n8o8s\n7OdliOBp0FfqEELjpD5risVJYEZKzK4HyxZ+4JQ+tYrnMBI23T4TID8I\n-----END PRIVATE KEY-----\n"
    /// A P-384 key: readable, but not the P-256 key APNs signs with.
    static let p384Key = "-----BEGIN PRIVATE KEY-----\nMIG2AgEAMBAGByqGSM49AgEGBSuBBAAiBIGeMIGbAgEBBDDiQj4VVCcBXCj13Oi7\n8dXhg9hNMxfxmHtwzvNHBvlKBgefOJpTYP4oUXHOQtFC6SShZANiAAT/t+A25SKd\n779squsuezfjB6/BAMLCyGF1x0ZF9u64Y5r/AhmnKmTo25CVW78X2qiG9MgBSU4P\n79c6tikinjla2ExCWk3MjPYcbDPgaXNYQRFaD+upV6oEjc1uVSzXUl4=\n-----END PRIVATE KEY-----\n"
    /// A 2048-bit RSA key in PKCS#8 PEM, as in a service account key file.
    static let rsaKey = "-----BEGIN PRIVATE KEY-----\nMIIEvAIBADANBgkqhkiG9w0BAQEFAASCBKYwggSiAgEAAoIBAQCTJ/YNUBtsbR1v\nf+MKv3PzFMFxJkPQM1Q+hpcuAcyns4RA1wmuCc6N7KktGgDlIb0avFf3BaodhVOu\nnH4snCivqWvnQV+1CwHFgydQCFxShX33gGnR+YjHUjWnPtMsHMv54qSz/QcUHkm0\nmW43LG0CoRrAlJD8052OGe/atzUHX/mk4Q2h32UCU5VfeFSBwU/SwqPQ/3OH64Yq\nKkS/H3+gIMIhNbuj38WiXxriluIFjttiWDTmC2cnzxKyli3hrRkRigt3Z/qdbEZ8\nUr3Do0jJxjMxw6hl4UeUqKH+OGwdIbpSQJsiMbCVOYf4nKYVZrXtaLQpwDtf15+K\nb36+DbCRAgMBAAECggEAGuagu9FLmhgeW+4whpv2Kdc+/5zDo9FmUqHPDDmG/Jc8\nE5Bb9CVVzasYSCbrR/fRdow8tmsiLJBdelugUy5e37HkiFtykAmJkt5FdwN4QRun\nKfIfJiPsRae5KDA7cWJ4RV+RxVd5jkt1JN8xf0OPT/48gj0Gfjl/IWWLa9u3BXhW\nl5WAPFCAlm/MTWmyWTYnVky7hN31HfE5uPBf9ll4+gty1ax37Iir5mJpdan7u9NM\nizmabnl10q69rF7DetjazlV0lvld30M+kzH3auOrgne7wOlo07O4EmC7VzEkEd3u\nUdognmvdIStiZPt6cIBHGLknKTzyUNN5hVFvaXwE+QKBgQDCSSuDUyGZaEG3DSas\niBKrbzuw/k/kXPw9FbTPlCrVwxWIhQBfdlf/P24GE4LPz3LCv9TIPSqfuccso3cd\nAHAMXwWNUGiHh+eIZanjzBc4ESB24F0KyVyC5JMCM7R+XiWQMowW35Q6KW2w30yV\n6hOmeYvAJybUVQnsb+rb4/K0pQKBgQDB5lJdQcmKBkpvbXIb0EKarZDjd8lcjIan\nPBgwL9mzZKsirf2pgkCvUYfhBZQvfVxfx3zW+Yt18I5nKZkEQnd3cre2sZeM9/xB\n7kMrTACkEoxd9Bq7i7C3cAQ8kfRZ47zxcyCN3Tad9kLONm3v98/msWiQV1e3SLuM\n/MZTyrjMfQKBgEoQyt3Nm0l4TVUTVmL/nN5uETtwN9S+/gnrdHqN6aaEMHlS+slp\nvDI6ZB884OmIFB/aMawEZXNux1dlGcuclxqgPuWYecDxNnrxBssoytE89jtbXRz3\nlqTvrntwaqaiDX/jRTSTF1b05DRBbFjaW5NjUrt2MX9Qy++u2sHpLGVhAoGAd22T\noZkZt4f0ZPl2ZSc7PuZU7aYkQnrTnUHobBWs80+4EN419SgjC1keZjz3buC5+sx2\nWjrN6VDHhUcb1oHR76KbAU4VWGCN4VYNzSc85dH+3wexR37c07+M/HmxlYQuJlGQ\n5ZAxSc4ai8T+peVvClqPWwhRILUNv+MZjRa6CEkCgYBcZ1chpJTkFP+2h6hR2Je9\n5amGGPE/ipSCwwNj51GID576pCPAbkSzxQmI4ozfAL5hMv5vvAu5AS5bhEL9CHzq\nMg4458UHxCa3JZ6H/FFH+TKsWYMf4dbZ18LtDAbTjMoH9l4bnjDl0k2hA+ItGl2C\nhJPfjIQwrQGWfjt5+nCnug==\n-----END PRIVATE KEY-----\n"

    /// A `PUT /v1/apps/{appId}/credentials/apns` body; `changes` replace or (nil) remove fields.
    static func apns(_ changes: [String: String?] = [:]) -> String {
        var fields: [String: String?] = [
            "keyId": "ABC123DEFG", "teamId": "TEAM123456", "bundleId": "com.example.shop", "environment": "sandbox", "privateKey": p256Key,
        ]
        for (name, value) in changes { fields[name] = value }
        return json(fields)
    }

    /// A `PUT /v1/apps/{appId}/credentials/fcm` body, as Firebase issues the key file.
    static func serviceAccount(_ changes: [String: String?] = [:]) -> String {
        var fields: [String: String?] = [
            "type": "service_account", "project_id": "demo-shop", "private_key_id": "0123456789abcdef", "private_key": rsaKey,
            "client_email": "push@demo-shop.iam.gserviceaccount.com", "client_id": "1234567890", "token_uri": "https://oauth2.googleapis.com/token",
        ]
        for (name, value) in changes { fields[name] = value }
        return json(fields)
    }

    private static func json(_ fields: [String: String?]) -> String {
        let present = fields.compactMapValues { $0 }
        return String(decoding: try! JSONSerialization.data(withJSONObject: present, options: [.sortedKeys]), as: UTF8.self)
    }
}
