package dev.notibase.testing;

import dev.notibase.core.outbox.Transport;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;

/** Records every post and answers with scripted statuses (201 when the script is empty); -1 scripts a network failure. */
public final class RecordingTransport implements Transport {
    /** One request as the server would see it. */
    public static final class Request {
        public final String path;
        public final String body;

        Request(String path, String body) {
            this.path = path;
            this.body = body;
        }
    }

    public final List<Request> requests = new ArrayList<>();
    private final Deque<Integer> answers = new ArrayDeque<>();

    public RecordingTransport answering(Integer... statuses) {
        for (Integer status : statuses) answers.add(status);
        return this;
    }

    @Override
    public synchronized int post(String path, String body) throws IOException {
        requests.add(new Request(path, body));
        int status = answers.isEmpty() ? 201 : answers.poll();
        if (status < 0) throw new IOException("connection refused");
        return status;
    }
}
