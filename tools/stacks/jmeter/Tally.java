import com.google.gson.JsonObject;
import java.util.Arrays;
import java.util.Base64;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import org.apache.jmeter.engine.util.NoThreadClone;
import org.apache.jmeter.samplers.SampleEvent;
import org.apache.jmeter.samplers.SampleListener;
import org.apache.jmeter.samplers.SampleResult;
import org.apache.jmeter.testelement.AbstractTestElement;

/**
 * Listens to every sample (in the sampler's thread, after the sample's time is taken): checks it, sends the first
 * answer back (a create's every answer), sizes the iterations by a warm-up, adds JMeter's elapsed times up per
 * iteration, and stops the thread when the last iteration is written or a sample failed.
 */
public final class Tally extends AbstractTestElement implements SampleListener, NoThreadClone {
    /**
     * The JVM's warm-up before the calls per iteration are sized and counted (or one iteration's time if longer): on the
     * client's one core the JIT compiles for seconds, and an int-max call read 1.1 ms after 1 s of calls, 0.5 ms after 5 s.
     */
    private static final long JVM_WARMUP_NS = TimeUnit.SECONDS.toNanos(3);

    private final Schedule schedule;
    private final boolean everyAnswer;
    private final int iterations;
    private final long iterationNs;
    private final long warmUpNs;
    private byte[] first;
    private long samples;
    private long warmUpStarted;
    private int callsPerIteration;
    private int inIteration;
    private long elapsedMs;
    private int written;
    private boolean finished;

    /** For JMeter's cloning, which NoThreadClone spares this element. */
    public Tally() {
        this(null, null);
    }

    Tally(JsonObject job, Schedule schedule) {
        this.schedule = schedule;
        // A paced job has no iterations: its schedule says how many samples.
        boolean measured = job != null && schedule == null;
        everyAnswer = measured && job.get("answers").getAsString().equals("each");
        boolean warmUp = measured && job.get("warmup").getAsBoolean();
        iterations = measured ? job.get("iterations").getAsInt() : 0;
        iterationNs = measured ? job.get("iteration_ns").getAsLong() : 0;
        warmUpNs = Math.max(JVM_WARMUP_NS, iterationNs);
        callsPerIteration = warmUp ? 0 : 1;
        setName("ProtocolBench's tally");
    }

    boolean finished() {
        return finished;
    }

    @Override
    public void sampleOccurred(SampleEvent event) {
        SampleResult result = event.getResult();
        try {
            if (schedule != null) {
                pace(result);
                return;
            }
            tally(result);
        } catch (RuntimeException e) {
            Out.line("error " + e.getMessage());
            result.setStopThread(true);
        }
    }

    private void tally(SampleResult result) {
        if (!succeeded(result)) {
            String code = result.getResponseCode();
            throw new IllegalStateException((code == null || code.isEmpty() ? "" : code.matches("\\d+") ? "HTTP " + code + ": " : code + ": ")
                + result.getResponseMessage() + " " + abbreviated(result.getResponseDataAsString()));
        }

        byte[] answer = result.getResponseData();
        samples++;
        if (first == null) {
            first = answer;
            Out.line("answer " + Base64.getEncoder().encodeToString(answer));
            warmUpStarted = System.nanoTime();
        } else if (everyAnswer) {
            Out.line("answer " + Base64.getEncoder().encodeToString(answer));
        } else if (!Arrays.equals(answer, first)) {
            throw new IllegalStateException("answer " + samples + " differs from the first (" + answer.length + " bytes against " + first.length + ")");
        }

        if (callsPerIteration == 0) {
            // The warm-up, whose calls are not counted: the JVM's, or one iteration's time if longer. It sizes the
            // iterations to the iteration's time, as the .NET cells are sized.
            long warmedFor = System.nanoTime() - warmUpStarted;
            if (warmedFor >= warmUpNs) {
                long perCall = Math.max(1, warmedFor / Math.max(1, samples - 1));
                callsPerIteration = (int) Math.max(1, Math.min(1_000_000, iterationNs / perCall));
            }
            return;
        }

        elapsedMs += result.getTime();
        if (++inIteration == callsPerIteration) {
            Out.line(String.format(Locale.ROOT, "iteration %.1f", elapsedMs * 1e6 / callsPerIteration));
            inIteration = 0;
            elapsedMs = 0;
            if (++written == iterations) {
                Out.line("done");
                finished = true;
                result.setStopThread(true);
            }
        }
    }

    /**
     * A sample of the paced stream: the warm-up's are not written (the first good answer is, to be checked); each
     * paced one is, with its lateness against the schedule and JMeter's elapsed time, both whole milliseconds.
     */
    private void pace(SampleResult result) {
        int index = (int) samples++ - schedule.warmUp;
        boolean ok = succeeded(result);
        byte[] answer = ok ? result.getResponseData() : null;
        if (ok && first == null) {
            first = answer;
            Out.line("answer " + Base64.getEncoder().encodeToString(answer));
        }
        if (index < 0) {
            return;
        }

        String timing = String.format(Locale.ROOT, "sample %d %.3f %d", index, result.getStartTime() - schedule.due(index), result.getTime());
        if (ok) {
            Out.line(timing + " ok" + (Arrays.equals(answer, first) ? "" : " " + Base64.getEncoder().encodeToString(answer)));
        } else {
            String code = result.getResponseCode() == null ? "" : result.getResponseCode();
            String message = result.getResponseMessage() == null ? "" : result.getResponseMessage();
            // JMeter's HTTP sampler reports a client-side exception as "Non HTTP response code: <its class>".
            boolean timedOut = code.contains("Timeout") || code.equals("DEADLINE_EXCEEDED");
            String name = code.matches("\\d+") ? "HTTP_" + code : timedOut ? "timeout" : code.isEmpty() || code.startsWith("Non HTTP") ? "transport" : code;
            Out.line(timing + (timedOut ? " timedout " : " failed ") + name + " " + code + " " + message);
        }
        if (index == schedule.count - 1) {
            Out.line("done");
            finished = true;
        }
    }

    private static boolean succeeded(SampleResult result) {
        String code = result.getResponseCode();
        return result.isSuccessful() && code != null && code.startsWith("2");
    }

    private static String abbreviated(String text) {
        return text == null ? "" : text.length() <= 200 ? text : text.substring(0, 200);
    }

    @Override
    public void sampleStarted(SampleEvent event) {
    }

    @Override
    public void sampleStopped(SampleEvent event) {
    }
}
