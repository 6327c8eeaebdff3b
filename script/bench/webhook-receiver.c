/*
 * The benchmark's webhook endpoint (script/bench/delivery.py): verifies every request's Standard
 * Webhooks signature and counts its events, and nothing else, in as little CPU as it can. The
 * benchmark runs it on the same cores as the server it measures; a receiver is another machine's,
 * and the Python one it replaces took more of those cores than the server's own webhook work
 * (docs/benchmarks/2026-12-07-lab-notes.md). The tests verify with the standardwebhooks and svix libraries; this only
 * counts, and checks each signature with OpenSSL's HMAC, independent of the server's code.
 *
 * Usage: webhook-receiver
 *   prints the port it listens on (127.0.0.1) as a line, then reads the endpoint's secret
 *   (whsec_...) as a line on standard input, then serves, one connection at a time (the server
 *   sends an endpoint one request at a time). For each request it prints a line:
 *     <delivery.sent events> <events> <1 if verified and counted, else 0> <CLOCK_MONOTONIC ns>
 *     <the connection's number, from 1 in the order accepted>
 *   and answers 204 (verified), keeping the connection for the next request unless the request
 *   said `Connection: close`, or 400, closing it.
 *
 * Events are counted by the keys the server writes, not parsed: each event has one "type", and so
 * has the envelope; each event's object starts with its "data", and so does the envelope. The two
 * counts must agree, or the request counts as bad.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

static unsigned char key[256];
static long connections;
static int key_length;

static void fail(const char *what) {
    perror(what);
    exit(1);
}

/* The header's value (trimmed), or NULL; `head` ends at the blank line. */
static char *header(char *head, const char *name, size_t *length) {
    size_t name_length = strlen(name);
    for (char *line = strstr(head, "\r\n"); line; line = strstr(line, "\r\n")) {
        line += 2;
        if (strncasecmp(line, name, name_length) == 0 && line[name_length] == ':') {
            char *value = line + name_length + 1;
            while (*value == ' ') value++;
            char *end = strstr(value, "\r\n");
            if (!end) return NULL;
            *length = (size_t)(end - value);
            return value;
        }
    }
    return NULL;
}

/* How many times `needle` occurs in `text`, found by `mark`, a byte `needle` holds once and the
 * body holds rarely: memchr skips to each with vector instructions, where memmem compares at
 * every byte (the searches were most of this receiver's CPU). With `then`, `*followed` counts the
 * occurrences `then` follows. */
static size_t count(const char *text, size_t length, const char *needle, char mark, const char *then, size_t *followed) {
    size_t found = 0, needle_length = strlen(needle), then_length = then ? strlen(then) : 0;
    size_t at = (size_t)(strchr(needle, mark) - needle);
    const char *cursor = text + at, *end = text + length;
    while (cursor < end && (cursor = memchr(cursor, mark, (size_t)(end - cursor)))) {
        const char *start = cursor - at, *after = start + needle_length;
        if (after <= end && memcmp(start, needle, needle_length) == 0) {
            found++;
            if (then && (size_t)(end - after) >= then_length && memcmp(after, then, then_length) == 0) (*followed)++;
        }
        cursor++;
    }
    return found;
}

static int verified(const char *id, size_t id_length, const char *timestamp, size_t timestamp_length, const char *body, size_t body_length,
                    const char *signatures, size_t signatures_length) {
    static EVP_MAC *mac;
    if (!mac) mac = EVP_MAC_fetch(NULL, "HMAC", NULL);
    EVP_MAC_CTX *context = EVP_MAC_CTX_new(mac);
    OSSL_PARAM parameters[] = {OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_DIGEST, "SHA256", 0), OSSL_PARAM_construct_end()};
    unsigned char digest[32];
    size_t digest_length = 0;
    if (!context || !EVP_MAC_init(context, key, (size_t)key_length, parameters) || !EVP_MAC_update(context, (const unsigned char *)id, id_length) ||
        !EVP_MAC_update(context, (const unsigned char *)".", 1) || !EVP_MAC_update(context, (const unsigned char *)timestamp, timestamp_length) ||
        !EVP_MAC_update(context, (const unsigned char *)".", 1) || !EVP_MAC_update(context, (const unsigned char *)body, body_length) ||
        !EVP_MAC_final(context, digest, &digest_length, sizeof digest)) {
        EVP_MAC_CTX_free(context);
        return 0;
    }
    EVP_MAC_CTX_free(context);
    char expected[64] = "v1,";
    int encoded = EVP_EncodeBlock((unsigned char *)expected + 3, digest, (int)digest_length);
    size_t expected_length = 3 + (size_t)encoded;
    /* Any of the space-separated signatures. */
    const char *token = signatures, *end = signatures + signatures_length;
    while (token < end) {
        const char *space = memchr(token, ' ', (size_t)(end - token));
        size_t token_length = (size_t)((space ? space : end) - token);
        if (token_length == expected_length && memcmp(token, expected, expected_length) == 0) return 1;
        token += token_length + 1;
    }
    return 0;
}

/* Serves one request; whether the connection goes on to another. */
static int serve(int connection, char **buffer, size_t *capacity) {
    size_t used = 0;
    char *end_of_head = NULL;
    while (!end_of_head) {
        if (used + 1 >= *capacity) {
            *capacity *= 2;
            *buffer = realloc(*buffer, *capacity);
        }
        ssize_t got = read(connection, *buffer + used, *capacity - used - 1);
        if (got <= 0) return 0;
        used += (size_t)got;
        (*buffer)[used] = 0;
        end_of_head = strstr(*buffer, "\r\n\r\n");
    }
    size_t head_length = (size_t)(end_of_head - *buffer) + 4;
    end_of_head[2] = 0; /* the head ends after its last header's line break */
    size_t length = 0;
    char *value = header(*buffer, "content-length", &length);
    size_t body_length = value ? strtoul(value, NULL, 10) : 0;
    if (head_length + body_length + 1 > *capacity) {
        *capacity = head_length + body_length + 1;
        *buffer = realloc(*buffer, *capacity);
    }
    while (used < head_length + body_length) {
        ssize_t got = read(connection, *buffer + used, head_length + body_length - used);
        if (got <= 0) return 0;
        used += (size_t)got;
    }
    char *body = *buffer + head_length;
    size_t id_length = 0, timestamp_length = 0, signatures_length = 0;
    char *id = header(*buffer, "webhook-id", &id_length);
    char *timestamp = header(*buffer, "webhook-timestamp", &timestamp_length);
    char *signatures = header(*buffer, "webhook-signature", &signatures_length);
    int valid = id && timestamp && signatures && verified(id, id_length, timestamp, timestamp_length, body, body_length, signatures, signatures_length);
    size_t events = 0, sent = 0;
    if (valid) {
        /* One pass for both counts: each "type" of an event, and whether it is a send. */
        size_t types = count(body, body_length, "\"type\":\"", 'y', "delivery.sent\"", &sent);
        events = types ? types - 1 : 0;
        if (count(body, body_length, "{\"data\":", '{', NULL, NULL) != types) valid = 0;
    }
    if (!valid) events = sent = 0;
    size_t connection_length = 0;
    char *connection_value = header(*buffer, "connection", &connection_length);
    int keep = valid && !(connection_value && connection_length >= 5 && strncasecmp(connection_value, "close", 5) == 0);
    const char *answer = keep ? "HTTP/1.1 204 No Content\r\n\r\n"
                       : valid ? "HTTP/1.1 204 No Content\r\nConnection: close\r\n\r\n"
                               : "HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\nConnection: close\r\n\r\n";
    if (write(connection, answer, strlen(answer)) < 0) keep = 0; /* the server gave up: it sends again */
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    printf("%zu %zu %d %lld %ld\n", sent, events, valid, (long long)now.tv_sec * 1000000000LL + now.tv_nsec, connections);
    fflush(stdout);
    return keep;
}

int main(void) {
    int listener = socket(AF_INET, SOCK_STREAM, 0);
    if (listener < 0) fail("socket");
    struct sockaddr_in address = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK), .sin_port = 0};
    socklen_t address_length = sizeof address;
    if (bind(listener, (struct sockaddr *)&address, sizeof address) < 0 || listen(listener, 128) < 0) fail("bind");
    if (getsockname(listener, (struct sockaddr *)&address, &address_length) < 0) fail("getsockname");
    printf("%d\n", ntohs(address.sin_port));
    fflush(stdout);
    char secret[512];
    if (!fgets(secret, sizeof secret, stdin)) fail("reading the secret");
    secret[strcspn(secret, "\r\n")] = 0;
    const char *encoded = strncmp(secret, "whsec_", 6) == 0 ? secret + 6 : secret;
    size_t encoded_length = strlen(encoded);
    if (encoded_length == 0 || encoded_length % 4 != 0 || encoded_length / 4 * 3 > sizeof key) {
        fprintf(stderr, "webhook-receiver: the secret is not base64\n");
        return 1;
    }
    key_length = EVP_DecodeBlock(key, (const unsigned char *)encoded, (int)encoded_length);
    if (key_length < 0) {
        fprintf(stderr, "webhook-receiver: the secret is not base64\n");
        return 1;
    }
    /* EVP_DecodeBlock counts the padding as zero bytes. */
    for (size_t index = encoded_length; index > 0 && encoded[index - 1] == '='; index--) key_length--;
    size_t capacity = 1 << 16;
    char *buffer = malloc(capacity);
    for (;;) {
        int connection = accept(listener, NULL, NULL);
        if (connection < 0) continue;
        connections++;
        while (serve(connection, &buffer, &capacity)) {}
        close(connection);
    }
}
