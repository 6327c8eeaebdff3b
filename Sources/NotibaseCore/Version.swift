/// Notibase's version, the one place it is written (semantic versioning): the server, both SDKs,
/// the OpenAPI document and the release scripts read it from here.
public enum NotibaseVersion {
    public static let current = "0.1.0"
}
