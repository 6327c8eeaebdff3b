package dev.notibase.testing;

import dev.notibase.core.outbox.Answer;
import dev.notibase.core.outbox.Transport;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;

/**
 * Records every post and answers with scripted statuses (201 when the script is empty), and bodies
 * where scripted; -1 scripts a network failure.
 */
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
    private final Deque<Answer> answers = new ArrayDeque<>();

    public RecordingTransport answering(Integer... statuses) {
        for (Integer status : statuses) answers.add(new Answer(status, ""));
        return this;
    }

    /** One answer with a body, as the server's 4xx errors have. */
    public RecordingTransport answering(int status, String body) {
        answers.add(new Answer(status, body));
        return this;
    }

    @Override
    public synchronized Answer post(String path, String body) throws IOException {
        requests.add(new Request(path, body));
        Answer answer = answers.isEmpty() ? new Answer(201, "") : answers.poll();
        if (answer.status < 0) throw new IOException("connection refused");
        return answer;
    }
}
