import com.google.gson.JsonObject;
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
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslProvider;
import java.io.ByteArrayInputStream;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.jmeter.config.Arguments;
import org.apache.jmeter.protocol.java.sampler.AbstractJavaSamplerClient;
import org.apache.jmeter.protocol.java.sampler.JavaSampler;
import org.apache.jmeter.protocol.java.sampler.JavaSamplerContext;
import org.apache.jmeter.samplers.SampleResult;

/**
 * The gRPC plugin's kind of sampler over grpc-java on Netty: a unary call with the request's bytes, the reply read as
 * a DynamicMessage of the reply's type (built from protocolbench.proto's descriptor) and printed as JSON inside the
 * timed sample. A new channel (its own connection) for every call, shut down after the sample's time is taken, or one
 * kept for the thread. Over TLS it trusts exactly the project's certificate, by OpenSSL (netty-tcnative: ALPN).
 */
public final class GrpcCall extends AbstractJavaSamplerClient {
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
