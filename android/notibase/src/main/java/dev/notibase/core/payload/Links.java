package dev.notibase.core.payload;

/** The server's rules for links and icons ({@code Message+Validation.swift}), applied again on the device. */
public final class Links {
    private Links() {}

    /** A deep link: an RFC 3986 scheme, a colon, something after it, no white space. */
    public static boolean isValidLink(String link) {
        int colon = link.indexOf(':');
        if (colon <= 0 || colon == link.length() - 1) return false;
        if (!isASCIILetter(link.charAt(0))) return false;
        for (int i = 1; i < colon; i++) {
            char c = link.charAt(i);
            if (!(isASCIILetter(c) || (c >= '0' && c <= '9') || c == '+' || c == '-' || c == '.')) return false;
        }
        for (int i = 0; i < link.length(); i++) {
            if (Character.isWhitespace(link.charAt(i)) || Character.isSpaceChar(link.charAt(i))) return false;
        }
        return true;
    }

    /** An {@code https://} URL (any case) with a non-empty host. */
    public static boolean isHTTPSWithHost(String url) {
        if (!url.regionMatches(true, 0, "https://", 0, 8)) return false;
        int end = 8;
        while (end < url.length() && "/?#".indexOf(url.charAt(end)) < 0) end++;
        String authority = url.substring(8, end);
        String host = authority.substring(authority.lastIndexOf('@') + 1);
        int port = host.indexOf(':');
        if (port >= 0) host = host.substring(0, port);
        if (host.isEmpty()) return false;
        for (int i = 0; i < host.length(); i++) {
            if (Character.isWhitespace(host.charAt(i))) return false;
        }
        return true;
    }

    /** {@code system:NAME} or {@code template:NAME} with a non-empty name. */
    public static boolean isValidIcon(String icon) {
        for (String prefix : new String[] {"system:", "template:"}) {
            if (icon.startsWith(prefix)) return icon.length() > prefix.length();
        }
        return false;
    }

    private static boolean isASCIILetter(char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
    }
}
