import com.google.gson.JsonObject;
import org.apache.jmeter.engine.util.NoThreadClone;
import org.apache.jmeter.samplers.SampleResult;
import org.apache.jmeter.testelement.AbstractTestElement;
import org.apache.jmeter.timers.Timer;

/**
 * The paced stream's timer: no delay in the warm-up, then a pause of settle_ms and one sample every 1/rate seconds on a
 * fixed schedule from then on, so a stall shows as latency instead of moving the schedule (JMeter's own
 * ConstantThroughputTimer starts again from the clock when it falls behind). JMeter sleeps the whole milliseconds it
 * returns before the sample, by the clock its samples are stamped with.
 */
public final class Schedule extends AbstractTestElement implements Timer, NoThreadClone {
    private final SampleResult clock = new SampleResult();
    final int warmUp;
    final int count;
    private final double intervalMs;
    private final long settleMs;
    private int next;
    private long origin;

    /** For JMeter's cloning, which NoThreadClone spares this element. */
    public Schedule() {
        warmUp = 0;
        count = 0;
        intervalMs = 0;
        settleMs = 0;
    }

    Schedule(JsonObject job) {
        warmUp = job.get("warmup_count").getAsInt();
        count = job.get("count").getAsInt();
        intervalMs = 1000 / job.get("rate").getAsDouble();
        settleMs = job.get("settle_ms").getAsLong();
        setName("ProtocolBench's schedule");
    }

    int samples() {
        return warmUp + count;
    }

    /** When paced sample INDEX is due, in JMeter's sample clock (ms). */
    double due(int index) {
        return origin + index * intervalMs;
    }

    @Override
    public long delay() {
        int index = next++ - warmUp;
        if (index < 0) {
            return 0;
        }
        long now = clock.currentTimeInMillis();
        if (index == 0) {
            origin = now + settleMs;
        }
        return Math.max(0, (long) Math.ceil(due(index) - now));
    }
}
