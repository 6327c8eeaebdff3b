/// The attachment types iOS accepts, the UTIs that name them, and their size limits.
///
/// Apple's table (UNNotificationAttachment): images kUTTypeJPEG, kUTTypeGIF, kUTTypePNG up to
/// 10 MB; audio kUTTypeAudioInterchangeFileFormat, kUTTypeWaveformAudio, kUTTypeMP3,
/// kUTTypeMPEG4Audio up to 5 MB; movies kUTTypeMPEG, kUTTypeMPEG2Video, kUTTypeMPEG4,
/// kUTTypeAVIMovie up to 50 MB. Anything else (WebP, HEIC, …) is rejected.
///
/// "MB" is taken as 1,000,000 bytes: Apple does not say which it means, and the smaller reading
/// keeps the shim from accepting a file iOS might refuse.
enum AttachmentKind: String, Sendable, Codable {
    case image
    case audio
    case movie

    /// Largest accepted file, in bytes.
    var maximumFileSize: Int64 {
        switch self {
        case .image: 10_000_000
        case .audio: 5_000_000
        case .movie: 50_000_000
        }
    }

    /// The supported UTIs and their kinds.
    static let kindsByType: [String: AttachmentKind] = [
        "public.jpeg": .image,
        "com.compuserve.gif": .image,
        "public.png": .image,
        "public.aiff-audio": .audio,
        "com.microsoft.waveform-audio": .audio,
        "public.mp3": .audio,
        "public.mpeg-4-audio": .audio,
        "public.mpeg": .movie,
        "public.mpeg-2-video": .movie,
        "public.mpeg-4": .movie,
        "public.avi": .movie,
    ]

    /// Filename extensions (lowercased) of the supported UTIs, as Apple's type database declares
    /// them. `.mp2` is not here: it names MPEG audio layer II (`public.mp2`), which iOS does not
    /// accept; MPEG-2 video files are `.m2v`.
    static let typesByExtension: [String: String] = [
        "jpg": "public.jpeg", "jpeg": "public.jpeg", "jpe": "public.jpeg",
        "gif": "com.compuserve.gif",
        "png": "public.png",
        "aif": "public.aiff-audio", "aiff": "public.aiff-audio",
        "wav": "com.microsoft.waveform-audio", "wave": "com.microsoft.waveform-audio",
        "mp3": "public.mp3",
        "m4a": "public.mpeg-4-audio",
        "mpg": "public.mpeg", "mpeg": "public.mpeg", "mpe": "public.mpeg",
        "m2v": "public.mpeg-2-video",
        "mp4": "public.mpeg-4", "mpg4": "public.mpeg-4",
        "avi": "public.avi", "vfw": "public.avi",
    ]

    /// Whether a file's first bytes are of `type`. iOS decodes an image attachment and drops one
    /// whose contents are not the type claimed. Images are checked by their signature (JPEG
    /// `FF D8 FF`, PNG's eight bytes, `GIF87a`/`GIF89a`); audio and movies are not checked here
    /// (see docs/usernotifications-shim.md).
    static func contents(_ prefix: [UInt8], match type: String) -> Bool {
        switch type {
        case "public.jpeg": prefix.starts(with: [0xFF, 0xD8, 0xFF])
        case "public.png": prefix.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        case "com.compuserve.gif": prefix.starts(with: Array("GIF87a".utf8)) || prefix.starts(with: Array("GIF89a".utf8))
        default: true
        }
    }
}
