import com.google.protobuf.DescriptorProtos.DescriptorProto;
import com.google.protobuf.DescriptorProtos.FieldDescriptorProto;
import com.google.protobuf.DescriptorProtos.FieldDescriptorProto.Label;
import com.google.protobuf.DescriptorProtos.FieldDescriptorProto.Type;
import com.google.protobuf.DescriptorProtos.FileDescriptorProto;
import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.FileDescriptor;
import com.google.protobuf.DynamicMessage;
import com.google.protobuf.util.JsonFormat;
import io.grpc.CallOptions;
import io.grpc.ManagedChannel;
import io.grpc.MethodDescriptor;
import io.grpc.netty.NegotiationType;
import io.grpc.netty.NettyChannelBuilder;
import io.grpc.stub.ClientCalls;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Arrays;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * The JMeter gRPC plugin's stack (grpc-java on Netty, h2c) calling one of ProtocolBench's payload operations back to
 * back: "new" builds a channel for every call (its TCP connection and HTTP/2 preface), "reuse" keeps one. With "json"
 * every answer is also read as a DynamicMessage and printed as JSON inside the timed call, as the plugin does before it
 * ends a sample (zalopay-oss/jmeter-grpc-request: GRPCSampler times ClientCaller.call, whose Writer prints each message
 * with JsonFormat). Every answer is checked; channels are shut down outside the timed call.
 * Usage: GrpcProbe HOST PORT int-max|ints|text-file new|reuse raw|json WARMUP COUNT
 */
public final class GrpcProbe {
    private static final MethodDescriptor.Marshaller<byte[]> BYTES = new MethodDescriptor.Marshaller<>() {
        public InputStream stream(byte[] value) { return new ByteArrayInputStream(value); }
        public byte[] parse(InputStream stream) {
            try {
                return stream.readAllBytes();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    };

    /** The replies of protocolbench.proto this probe reads, described at run time as the plugin describes them. */
    private static final FileDescriptor REPLIES = replies();

    private record Operation(String method, byte[] request, Descriptor reply, int minimumReplyBytes) {}

    public static void main(String[] args) throws Exception {
        String host = args[0];
        int port = Integer.parseInt(args[1]);
        Operation operation = switch (args[2]) {
            case "int-max" -> new Operation("GetIntMax", new byte[0], REPLIES.findMessageTypeByName("IntMaxReply"), 6);
            // GetIntsRequest { count: 10000 }: field 1, varint.
            case "ints" -> new Operation("GetInts", new byte[] {0x08, (byte) 0x90, 0x4e}, REPLIES.findMessageTypeByName("IntsReply"), 19_000);
            case "text-file" -> new Operation("GetTextFile", new byte[0], REPLIES.findMessageTypeByName("FileReply"), 400_000);
            default -> throw new IllegalArgumentException("unknown operation " + args[2]);
        };
        boolean fresh = args[3].equals("new");
        boolean json = args[4].equals("json");
        int warmup = Integer.parseInt(args[5]);
        int count = Integer.parseInt(args[6]);
        MethodDescriptor<byte[], byte[]> method = MethodDescriptor.<byte[], byte[]>newBuilder()
            .setType(MethodDescriptor.MethodType.UNARY).setFullMethodName("protocolbench.v1.Payloads/" + operation.method())
            .setRequestMarshaller(BYTES).setResponseMarshaller(BYTES).build();
        JsonFormat.Printer printer = JsonFormat.printer().preservingProtoFieldNames().includingDefaultValueFields();
        ManagedChannel kept = channel(host, port);
        double[] ms = new double[count];
        for (int i = -warmup; i < count; i++) {
            long start = System.nanoTime();
            ManagedChannel channel = fresh ? channel(host, port) : kept;
            byte[] reply = ClientCalls.blockingUnaryCall(channel, method, CallOptions.DEFAULT.withDeadlineAfter(10, TimeUnit.SECONDS), operation.request());
            String text = json ? printer.print(DynamicMessage.parseFrom(operation.reply(), reply)) : null;
            if (i >= 0) {
                ms[i] = (System.nanoTime() - start) / 1e6;
            }
            check(operation, reply, text);
            if (fresh) {
                channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
            }
        }
        kept.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
        Arrays.sort(ms);
        System.out.printf(Locale.ROOT, "grpc-java     %-45s %-5s median %.3f ms (quartiles %.3f–%.3f, n=%d)%n",
            "h2c " + operation.method() + (json ? " +JSON" : ""), args[3], ms[count / 2], ms[count / 4], ms[3 * count / 4], count);
    }

    private static void check(Operation operation, byte[] reply, String json) throws Exception {
        DynamicMessage message = DynamicMessage.parseFrom(operation.reply(), reply);
        boolean ok = reply.length >= operation.minimumReplyBytes() && switch (operation.method()) {
            case "GetIntMax" -> message.getField(operation.reply().findFieldByName("value")).equals(Integer.MAX_VALUE);
            case "GetInts" -> message.getRepeatedFieldCount(operation.reply().findFieldByName("values")) == 10_000;
            default -> message.getField(operation.reply().findFieldByName("name")).toString().endsWith(".txt");
        };
        if (!ok || (json != null && json.length() < operation.minimumReplyBytes() / 2)) {
            throw new IllegalStateException("unexpected answer to " + operation.method() + ": " + reply.length + " bytes");
        }
    }

    private static ManagedChannel channel(String host, int port) {
        return NettyChannelBuilder.forAddress(host, port).negotiationType(NegotiationType.PLAINTEXT).build();
    }

    private static FileDescriptor replies() {
        try {
            return FileDescriptor.buildFrom(FileDescriptorProto.newBuilder()
                .setName("replies.proto").setPackage("protocolbench.v1").setSyntax("proto3")
                .addMessageType(message("IntMaxReply", field("value", 1, Type.TYPE_INT32, Label.LABEL_OPTIONAL)))
                .addMessageType(message("IntsReply", field("values", 1, Type.TYPE_INT32, Label.LABEL_REPEATED)))
                .addMessageType(message("FileReply",
                    field("name", 1, Type.TYPE_STRING, Label.LABEL_OPTIONAL),
                    field("content_type", 2, Type.TYPE_STRING, Label.LABEL_OPTIONAL),
                    field("data", 3, Type.TYPE_BYTES, Label.LABEL_OPTIONAL)))
                .build(), new FileDescriptor[0]);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static DescriptorProto message(String name, FieldDescriptorProto... fields) {
        return DescriptorProto.newBuilder().setName(name).addAllField(Arrays.asList(fields)).build();
    }

    private static FieldDescriptorProto field(String name, int number, Type type, Label label) {
        return FieldDescriptorProto.newBuilder().setName(name).setNumber(number).setType(type).setLabel(label).build();
    }
}
