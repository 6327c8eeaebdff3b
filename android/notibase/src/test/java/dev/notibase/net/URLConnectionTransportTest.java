package dev.notibase.net;

import static org.junit.Assert.assertEquals;

import com.sun.net.httpserver.HttpServer;
import dev.notibase.core.SDKVersion;
import dev.notibase.core.outbox.Answer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.After;
import org.junit.Before;
import org.junit.Test;

/** The real transport against a local HTTP server: the key, the JSON, and the status reported as it is, with a 4xx's body. */
public final class URLConnectionTransportTest {
    private HttpServer server;
    private final List<String> seen = new ArrayList<>();
    private final List<String> userAgents = new ArrayList<>();
    private volatile int status = 202;
    private volatile String answer = "{\"error\":{\"code\":\"x\"}}";

    @Before
    public void start() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", exchange -> {
            String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            synchronized (seen) {
                seen.add(exchange.getRequestMethod() + " " + exchange.getRequestURI() + " " + exchange.getRequestHeaders().getFirst("Authorization")
                        + " " + exchange.getRequestHeaders().getFirst("Content-Type") + " " + body);
                userAgents.add(exchange.getRequestHeaders().getFirst("User-Agent"));
            }
            byte[] bytes = answer.getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(status, bytes.length);
            exchange.getResponseBody().write(bytes);
            exchange.close();
        });
        server.start();
    }

    @After
    public void stop() {
        server.stop(0);
    }

    private String base() {
        return "http://127.0.0.1:" + server.getAddress().getPort() + "/";
    }

    @Test
    public void postsJSONWithTheClientKey() throws IOException {
        URLConnectionTransport transport = new URLConnectionTransport(base(), "nb_client_abc", 2_000);
        assertEquals(202, transport.post("/v1/receipts", "{\"id\":\"é\"}").status);
        status = 403;
        assertEquals(403, transport.post("/v1/receipts", "{}").status);
        assertEquals(List.of("POST /v1/receipts Bearer nb_client_abc application/json {\"id\":\"é\"}",
                "POST /v1/receipts Bearer nb_client_abc application/json {}"), seen);
    }

    @Test
    public void everyRequestNamesTheSDKAndItsVersion() throws IOException {
        URLConnectionTransport transport = new URLConnectionTransport(base(), "k", 2_000);
        transport.post("/v1/devices", "{}");
        transport.post("/v1/receipts", "{}");
        assertEquals(List.of("Notibase-Android/" + SDKVersion.CURRENT, "Notibase-Android/" + SDKVersion.CURRENT), userAgents);
    }

    @Test
    public void aClientErrorComesWithItsBody() throws IOException {
        URLConnectionTransport transport = new URLConnectionTransport(base(), "k", 2_000);
        String error = "{\"error\":{\"code\":\"invalid_field\",\"message\":\"pas connue: é\",\"field\":\"timeZone\"}}";
        answer = error;
        status = 400;
        Answer refused = transport.post("/v1/devices", "{}");
        assertEquals(400, refused.status);
        assertEquals(error, refused.body);
        assertEquals("timeZone", refused.rejectedField());
        status = 503;
        assertEquals("read for a 4xx only", "", transport.post("/v1/devices", "{}").body);
        status = 201;
        assertEquals("", transport.post("/v1/devices", "{}").body);
    }

    @Test
    public void aClientErrorsBodyIsReadUpTo16KiB() throws IOException {
        answer = "x".repeat(Answer.MAX_BODY_BYTES * 4);
        status = 413;
        Answer refused = new URLConnectionTransport(base(), "k", 2_000).post("/v1/devices", "{}");
        assertEquals(413, refused.status);
        assertEquals(16 * 1024, refused.body.length());
    }

    @Test(expected = IOException.class)
    public void aServerThatIsNotThereIsAnIOException() throws IOException {
        String address = base();
        server.stop(0);
        new URLConnectionTransport(address, "k", 1_000).post("/v1/devices", "{}");
    }
}
