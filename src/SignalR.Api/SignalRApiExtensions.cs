using Microsoft.AspNetCore.Http.Connections;
using ProtocolBench.Shared.Hosting.Operations;
using ProtocolBench.SignalR.Api.Budget;
using ProtocolBench.SignalR.Api.Operations;

namespace ProtocolBench.SignalR.Api;

public static class SignalRApiExtensions
{
    /// <summary>
    /// How long one send to a hub client may take: the largest hub answer (a clone of 1 MiB of control characters, six JSON
    /// bytes each) at the budget's floor of 32 KiB/s, 192 s. The transport sends what the hub wrote in one send, and
    /// SignalR's own 10 s closed a JSON reader at 64 KiB/s after 0.7 MB of the PDF. A reader below the floor loses its
    /// connection sooner whenever others wait (the budget's fairness rule).
    /// </summary>
    public static readonly TimeSpan SendTimeout = TimeSpan.FromSeconds(6.0 * Limits.CloneOutputMaxChars / BudgetRules.MinBytesPerSecond);

    public static WebApplicationBuilder AddSignalRApi(this WebApplicationBuilder builder)
    {
        // SignalR logs every failed invocation at Error, the client's mistakes too; HubErrors logs what is not the client's.
        builder.Logging.AddFilter("Microsoft.AspNetCore.SignalR.Internal.DefaultHubDispatcher", LogLevel.Critical);
        builder.Services.AddSignalR(o =>
            {
                // A hub message is a request: the same 1 MiB as a request body on the other services.
                o.MaximumReceiveMessageSize = Limits.RequestBodyMaxBytes;
                // No exception's type or text reaches a client: a hub method's failures are led by their code (HubErrors), and
                // so are arguments that do not bind (CountedHubProtocol); what else SignalR answers is its own plain text.
                o.EnableDetailedErrors = false;
                o.AddFilter<HubErrors>();
                o.AddFilter<HubAnswers>();
                o.AddFilter<UnfinishedMessages>();
            })
            // Long text in pieces, as REST and GraphQL write it (files by reference: SharedBase64Converter): whole, 1 MiB of control
            // characters asked the pipe for one span of 18 MiB, and a hundred stalled readers grew the service by 2 GB.
            .AddJsonProtocol(o =>
            {
                o.PayloadSerializerOptions.Converters.Add(new SegmentedTextConverter());
                // A file's base64 spliced from the copy every caller shares (SplicedCompletions).
                o.PayloadSerializerOptions.Converters.Add(new SharedBase64Converter());
            })
            // Strings must be UTF-8, as on every other protocol (MessagePack-CSharp would store U+FFFD for the bad bytes).
            .AddMessagePackProtocol(o => o.SerializerOptions = StrictUtf8Strings.Apply(o.SerializerOptions));
        // One account of the unfinished messages of every connection: a filter SignalR resolves, not one it makes per call.
        builder.Services.AddSingleton<UnfinishedMessages>();
        builder.Services.AddSingleton<IOperationBindings, HubOperationBindings>();
        // Both protocols count what they write to each connection, so that an answer's reservation is held until it is sent.
        foreach (var protocol in builder.Services.Where(d => d.ServiceType == typeof(IHubProtocol)).ToList())
        {
            var type = protocol.ImplementationType!;
            builder.Services.Remove(protocol);
            builder.Services.AddSingleton<IHubProtocol>(services => new CountedHubProtocol((IHubProtocol)ActivatorUtilities.CreateInstance(services, type)));
        }

        // What goes wrong outside the hub (a broken upgrade request) is answered as on the other services, with no trace id.
        builder.Services.AddProblemDetails(o => o.CustomizeProblemDetails = c => c.ProblemDetails.Extensions.Remove("traceId"));
        return builder;
    }

    public static WebApplication MapSignalRApi(this WebApplication app)
    {
        // WebSockets only, and no negotiate round trip: the client connects straight to ws(s)://host:port/hub. The socket
        // lives as long as the client keeps it, so the per-request timeout does not apply to it; every invocation is
        // bounded instead by the client's timeout and the database's command timeout.
        app.MapHub<LibraryHub>(LibraryHub.Path, o =>
            {
                o.Transports = HttpTransportType.WebSockets;
                o.TransportSendTimeout = SendTimeout;
            })
            .DisableRequestTimeout();
        return app;
    }
}
