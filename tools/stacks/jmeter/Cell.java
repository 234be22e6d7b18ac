import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import com.google.protobuf.DescriptorProtos.FileDescriptorProto;
import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.FileDescriptor;
import com.google.protobuf.DynamicMessage;
import com.google.protobuf.util.JsonFormat;
import io.grpc.CallOptions;
import io.grpc.ManagedChannel;
import io.grpc.MethodDescriptor;
import io.grpc.StatusRuntimeException;
import io.grpc.netty.GrpcSslContexts;
import io.grpc.netty.NegotiationType;
import io.grpc.netty.NettyChannelBuilder;
import io.grpc.stub.ClientCalls;
import io.netty.handler.ssl.OpenSsl;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslProvider;
import java.io.BufferedReader;
import java.io.ByteArrayInputStream;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import org.apache.jmeter.config.Arguments;
import org.apache.jmeter.control.LoopController;
import org.apache.jmeter.engine.StandardJMeterEngine;
import org.apache.jmeter.engine.util.NoThreadClone;
import org.apache.jmeter.protocol.http.control.Header;
import org.apache.jmeter.protocol.http.control.HeaderManager;
import org.apache.jmeter.protocol.http.sampler.HTTPSamplerProxy;
import org.apache.jmeter.protocol.java.sampler.AbstractJavaSamplerClient;
import org.apache.jmeter.protocol.java.sampler.JavaSampler;
import org.apache.jmeter.protocol.java.sampler.JavaSamplerContext;
import org.apache.jmeter.samplers.SampleEvent;
import org.apache.jmeter.samplers.SampleListener;
import org.apache.jmeter.samplers.SampleResult;
import org.apache.jmeter.testelement.AbstractTestElement;
import org.apache.jmeter.testelement.TestElement;
import org.apache.jmeter.testelement.TestPlan;
import org.apache.jmeter.threads.AbstractThreadGroup;
import org.apache.jmeter.threads.ThreadGroup;
import org.apache.jmeter.timers.Timer;
import org.apache.jmeter.util.JMeterUtils;
import org.apache.jorphan.collections.HashTree;

/**
 * One cell measured through Bolanowski et al.'s kind of client: JMeter (Debian's 2.13) running one thread group of one
 * thread whose sampler calls the service back to back. REST and GraphQL go through JMeter's HTTP sampler on Apache
 * HttpClient 4; gRPC through a Java sampler over grpc-java that, inside the timed sample, reads the answer as a
 * DynamicMessage and prints it as JSON, as the zalopay-oss/jmeter-grpc-request plugin does (its GRPCSampler times
 * ClientCaller.call, whose Writer prints each message with JsonFormat). JMeter's own elapsed time of each sample (whole
 * milliseconds, SampleResult.getTime) is what counts.
 *
 * The test plan is built in code and run by JMeter's engine in this process rather than loaded from a .jmx file:
 * Debian's 2.13 refuses to load any saved plan (XStream's ForbiddenClassException on ScriptWrapper), and a plan built
 * in code runs the same engine, thread group and samplers.
 *
 * ProtocolBench's benchmark command (--client jmeter) starts this through cell.sh and writes one job as a line of JSON
 * on its standard input, as for the Python stack (tools/stacks/python/cell.py): the same fields, the same lines back:
 *
 *     answer BASE64       the first answer's bytes (a create's: every answer's)
 *     iteration NS        one iteration's mean time per call, in nanoseconds
 *     done
 *     error MESSAGE       instead of the rest, and exit 1
 *
 * A paced job (ProtocolBench's load command, "mode": "paced") runs warmup_count samples back to back, pauses settle_ms,
 * then count samples on a fixed schedule of rate a second (the Schedule timer), in the one thread (a sample that
 * outlasts the interval delays the next, which shows as its lateness), and writes what cell.py's paced job writes:
 *
 *     answer BASE64                       the first good answer's bytes, which the harness checks
 *     sample INDEX LATE_MS ELAPSED_MS ok [BASE64]
 *                                         JMeter's elapsed time; an answer that differs from the first goes back with it
 *     sample INDEX LATE_MS ELAPSED_MS failed|timedout CODE MESSAGE
 *     done
 *
 * "Cell --versions" prints the stack's versions (and loads OpenSSL, which gRPC's TLS needs).
 */
public final class Cell {
    private static final String JMETER_HOME = "/usr/share/jmeter";

    /**
     * The JVM's warm-up before the calls per iteration are sized and counted (or one iteration's time if longer): on the
     * client's one core the JIT compiles for seconds, and an int-max call read 1.1 ms after 1 s of calls, 0.5 ms after 5 s.
     */
    private static final long JVM_WARMUP_NS = TimeUnit.SECONDS.toNanos(3);

    public static void main(String[] args) throws Exception {
        if (args.length == 1 && args[0].equals("--versions")) {
            System.out.println(versions());
            return;
        }

        int status = 1;
        try {
            String line = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)).readLine();
            if (line == null) {
                throw new IllegalArgumentException("no job on standard input");
            }
            status = measure(JsonParser.parseString(line).getAsJsonObject()) ? 0 : 1;
        } catch (Exception e) {
            Out.line("error " + e.getClass().getSimpleName() + ": " + e.getMessage());
        }
        System.out.flush();
        // JMeter's and Netty's threads would keep the JVM up.
        System.exit(status);
    }

    private static String versions() {
        return String.format(Locale.ROOT, "JMeter %s, Java %s, HttpClient %s, grpc-java %s, Netty %s, %s",
            JMeterUtils.getJMeterVersion(), Runtime.version(),
            org.apache.http.util.VersionInfo.loadVersionInfo("org.apache.http.client", Cell.class.getClassLoader()).getRelease(),
            io.grpc.internal.GrpcUtil.getGrpcBuildVersion().getImplementationVersion(),
            io.netty.util.Version.identify().get("netty-common").artifactVersion(),
            OpenSsl.isAvailable() ? OpenSsl.versionString() : "no OpenSSL for gRPC's TLS (" + OpenSsl.unavailabilityCause() + ")");
    }

    /** Runs the job's calls in JMeter's engine; false when a call failed or an answer differed (the error line is written). */
    private static boolean measure(JsonObject job) {
        startJMeter(job.get("new_connection").getAsBoolean());
        boolean paced = job.has("mode") && job.get("mode").getAsString().equals("paced");
        Schedule schedule = paced ? new Schedule(job) : null;
        Tally tally = new Tally(job, schedule);

        ThreadGroup group = new ThreadGroup();
        group.setName("cell");
        group.setNumThreads(1);
        group.setRampUp(0);
        // A paced stream goes on past a failed sample, which it reports; a measured cell stops at the first.
        group.setProperty(AbstractThreadGroup.ON_SAMPLE_ERROR,
            paced ? AbstractThreadGroup.ON_SAMPLE_ERROR_CONTINUE : AbstractThreadGroup.ON_SAMPLE_ERROR_STOPTHREAD);
        LoopController loop = new LoopController();
        loop.setLoops(paced ? schedule.samples() : LoopController.INFINITE_LOOP_COUNT);
        loop.setFirst(true);
        loop.initialize();
        group.setSamplerController(loop);

        HashTree plan = new HashTree();
        HashTree threads = plan.add(new TestPlan("ProtocolBench cell")).add(group);
        if (job.get("protocol").getAsString().equals("grpc")) {
            threads.add(GrpcCall.sampler(job));
        } else {
            threads.add(httpSampler(job));
            if (job.has("body") && !job.get("body").isJsonNull()) {
                HeaderManager headers = new HeaderManager();
                headers.setName("Content-Type");
                // The sampler takes only the config elements whose editor it knows (HTTPSamplerBase.applies), as in a saved plan.
                headers.setProperty(TestElement.GUI_CLASS, "org.apache.jmeter.protocol.http.gui.HeaderPanel");
                headers.add(new Header("Content-Type", job.get("content_type").getAsString()));
                threads.add(headers);
            }
        }
        if (paced) {
            threads.add(schedule);
        }
        threads.add(tally);

        StandardJMeterEngine engine = new StandardJMeterEngine();
        engine.configure(plan);
        engine.run();
        return tally.finished();
    }

    /**
     * JMeter's properties as installed, with a new connection per call made as JMeter resets a thread's state on each
     * iteration (no kept connection, no cached TLS context: a full handshake each time) and no retry hiding a failure.
     */
    private static void startJMeter(boolean newConnection) {
        JMeterUtils.setJMeterHome(JMETER_HOME);
        JMeterUtils.loadJMeterProperties(JMETER_HOME + "/bin/jmeter.properties");
        JMeterUtils.setProperty("log_file", "/dev/stderr");
        JMeterUtils.setProperty("log_level.jmeter", "WARN");
        JMeterUtils.setProperty("jmeter.httpsampler", "HttpClient4");
        JMeterUtils.setProperty("httpclient4.retrycount", "0");
        JMeterUtils.setProperty("https.use.cached.ssl.context", Boolean.toString(!newConnection));
        JMeterUtils.setProperty("sampleresult.useNanoTime", "true");
        JMeterUtils.initLogging();
        JMeterUtils.initLocale();
    }

    /**
     * JMeter's HTTP sampler on HttpClient 4, to the services' address. Over HTTPS it accepts the service's certificate
     * without checking it, as JMeter does for everyone who runs it (its HC4TrustAllSSLSocketFactory).
     */
    private static HTTPSamplerProxy httpSampler(JsonObject job) {
        HTTPSamplerProxy sampler = new HTTPSamplerProxy();
        sampler.setName(job.get("method").getAsString() + " /" + job.get("path").getAsString());
        sampler.setImplementation("HttpClient4");
        sampler.setProtocol(job.get("tls").getAsBoolean() ? "https" : "http");
        sampler.setDomain(job.get("host").getAsString());
        sampler.setPort(job.get("port").getAsInt());
        sampler.setPath("/" + job.get("path").getAsString());
        sampler.setMethod(job.get("method").getAsString());
        sampler.setFollowRedirects(false);
        sampler.setAutoRedirects(false);
        sampler.setUseKeepAlive(!job.get("new_connection").getAsBoolean());
        String timeout = Long.toString(Math.round(job.get("timeout_seconds").getAsDouble() * 1000));
        sampler.setConnectTimeout(timeout);
        sampler.setResponseTimeout(timeout);
        if (job.has("body") && !job.get("body").isJsonNull()) {
            sampler.setPostBodyRaw(true);
            sampler.setContentEncoding("UTF-8");
            sampler.addNonEncodedArgument("", new String(Base64.getDecoder().decode(job.get("body").getAsString()), StandardCharsets.UTF_8), "");
        }

        return sampler;
    }

    /** The lines to the harness, each flushed. */
    static final class Out {
        static synchronized void line(String text) {
            System.out.println(text.replace('\n', ' '));
            System.out.flush();
        }
    }

    /**
     * Listens to every sample (in the sampler's thread, after the sample's time is taken): checks it, sends the first
     * answer back (a create's every answer), sizes the iterations by a warm-up, adds JMeter's elapsed times up per
     * iteration, and stops the thread when the last iteration is written or a sample failed.
     */
    public static final class Tally extends AbstractTestElement implements SampleListener, NoThreadClone {
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

    /**
     * The paced stream's timer: no delay in the warm-up, then a pause of settle_ms and one sample every 1/rate seconds on a
     * fixed schedule from then on, so a stall shows as latency instead of moving the schedule (JMeter's own
     * ConstantThroughputTimer starts again from the clock when it falls behind). JMeter sleeps the whole milliseconds it
     * returns before the sample, by the clock its samples are stamped with.
     */
    public static final class Schedule extends AbstractTestElement implements Timer, NoThreadClone {
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

    /**
     * The gRPC plugin's kind of sampler over grpc-java on Netty: a unary call with the request's bytes, the reply read as
     * a DynamicMessage of the reply's type (built from protocolbench.proto's descriptor) and printed as JSON inside the
     * timed sample. A new channel (its own connection) for every call, shut down after the sample's time is taken, or one
     * kept for the thread. Over TLS it trusts exactly the project's certificate, by OpenSSL (netty-tcnative: ALPN).
     */
    public static final class GrpcCall extends AbstractJavaSamplerClient {
        private static final MethodDescriptor.Marshaller<byte[]> BYTES = new MethodDescriptor.Marshaller<>() {
            public InputStream stream(byte[] value) {
                return new ByteArrayInputStream(value);
            }

            public byte[] parse(InputStream stream) {
                try {
                    return stream.readAllBytes();
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }
        };

        private static final String[] PARAMETERS =
            {"host", "tls_host", "port", "tls", "certificate", "path", "body", "reply_type", "descriptors", "new_connection", "timeout_seconds"};

        private MethodDescriptor<byte[], byte[]> method;
        private Descriptor reply;
        private JsonFormat.Printer printer;
        private byte[] request;
        private boolean newConnection;
        private long timeoutMs;
        private NettyChannelBuilder channels;
        private ManagedChannel kept;

        /** The Java sampler as a JMeter user sets it up: this class and the call's parameters. */
        static JavaSampler sampler(JsonObject job) {
            Arguments arguments = new Arguments();
            for (String name : PARAMETERS) {
                String value = name.equals("descriptors") ? String.join(",", strings(job, name))
                    : job.get(name).isJsonNull() ? "" : job.get(name).getAsString();
                arguments.addArgument(name, value);
            }

            JavaSampler sampler = new JavaSampler();
            sampler.setName("gRPC " + job.get("path").getAsString());
            sampler.setClassname(GrpcCall.class.getName());
            sampler.setArguments(arguments);
            return sampler;
        }

        private static List<String> strings(JsonObject job, String name) {
            List<String> values = new ArrayList<>();
            job.getAsJsonArray(name).forEach(value -> values.add(value.getAsString()));
            return values;
        }

        @Override
        public Arguments getDefaultParameters() {
            Arguments arguments = new Arguments();
            for (String name : PARAMETERS) {
                arguments.addArgument(name, "");
            }
            return arguments;
        }

        @Override
        public void setupTest(JavaSamplerContext context) {
            try {
                FileDescriptor file = null;
                for (String encoded : context.getParameter("descriptors").split(",")) {
                    // protocolbench.proto imports nothing.
                    file = FileDescriptor.buildFrom(FileDescriptorProto.parseFrom(Base64.getDecoder().decode(encoded)), new FileDescriptor[0]);
                }
                String replyType = context.getParameter("reply_type");
                reply = file.findMessageTypeByName(replyType.substring(replyType.lastIndexOf('.') + 1));
                if (reply == null) {
                    throw new IllegalArgumentException("no message " + replyType + " in the descriptors");
                }
                method = MethodDescriptor.<byte[], byte[]>newBuilder()
                    .setType(MethodDescriptor.MethodType.UNARY)
                    .setFullMethodName(context.getParameter("path").substring(1))
                    .setRequestMarshaller(BYTES)
                    .setResponseMarshaller(BYTES)
                    .build();
                printer = JsonFormat.printer();
                request = Base64.getDecoder().decode(context.getParameter("body"));
                newConnection = Boolean.parseBoolean(context.getParameter("new_connection"));
                timeoutMs = Math.round(Double.parseDouble(context.getParameter("timeout_seconds")) * 1000);
                channels = NettyChannelBuilder.forAddress(context.getParameter("host"), context.getIntParameter("port", 0))
                    .maxInboundMessageSize(64 * 1024 * 1024);
                if (Boolean.parseBoolean(context.getParameter("tls"))) {
                    SslContext tls = GrpcSslContexts.forClient().sslProvider(SslProvider.OPENSSL)
                        .trustManager(new File(context.getParameter("certificate"))).build();
                    channels.negotiationType(NegotiationType.TLS).sslContext(tls).overrideAuthority(context.getParameter("tls_host"));
                } else {
                    channels.negotiationType(NegotiationType.PLAINTEXT);
                }
                kept = newConnection ? null : channels.build();
            } catch (Exception e) {
                throw new IllegalStateException("the gRPC sampler could not be set up: " + e, e);
            }
        }

        @Override
        public SampleResult runTest(JavaSamplerContext context) {
            SampleResult result = new SampleResult();
            result.setSampleLabel(method.getFullMethodName());
            ManagedChannel channel = null;
            result.sampleStart();
            try {
                channel = newConnection ? channels.build() : kept;
                byte[] answer = ClientCalls.blockingUnaryCall(channel, method, CallOptions.DEFAULT.withDeadlineAfter(timeoutMs, TimeUnit.MILLISECONDS), request);
                String json = printer.print(DynamicMessage.parseFrom(reply, answer));
                result.sampleEnd();
                result.setResponseData(answer);
                result.setDataType(SampleResult.BINARY);
                result.setResponseCodeOK();
                result.setResponseMessage("JSON " + json.length() + " characters");
                result.setSuccessful(true);
            } catch (Exception e) {
                result.sampleEnd();
                result.setResponseCode(e instanceof StatusRuntimeException status ? status.getStatus().getCode().name() : "");
                result.setResponseMessage("gRPC " + e);
                result.setSuccessful(false);
            } finally {
                if (newConnection && channel != null) {
                    shutDown(channel);
                }
            }

            return result;
        }

        @Override
        public void teardownTest(JavaSamplerContext context) {
            if (kept != null) {
                shutDown(kept);
            }
        }

        private static void shutDown(ManagedChannel channel) {
            try {
                channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
