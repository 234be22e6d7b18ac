import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.netty.handler.ssl.OpenSsl;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Locale;
import org.apache.jmeter.control.LoopController;
import org.apache.jmeter.engine.StandardJMeterEngine;
import org.apache.jmeter.protocol.http.control.Header;
import org.apache.jmeter.protocol.http.control.HeaderManager;
import org.apache.jmeter.protocol.http.sampler.HTTPSamplerProxy;
import org.apache.jmeter.testelement.TestElement;
import org.apache.jmeter.testelement.TestPlan;
import org.apache.jmeter.threads.AbstractThreadGroup;
import org.apache.jmeter.threads.ThreadGroup;
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
}
