using ProtocolBench.Shared.Hosting.Answers;
using ProtocolBench.Shared.Hosting.Health;

namespace ProtocolBench.Shared.Hosting;

public static class PayloadFilesExtensions
{
    /// <summary>
    /// The payload files, read once at start, their encodings shared by every reader (<see cref="SharedAnswers"/>), their
    /// health check, and the loopback sender of their bytes (off unless Endpoints:SenderPort is set).
    /// </summary>
    public static IHostApplicationBuilder AddPayloadFiles(this IHostApplicationBuilder builder)
    {
        builder.Services.AddSingleton(_ => PayloadFiles.Load(builder.Configuration["Payloads:Directory"]));
        builder.Services.AddSingleton<SharedAnswers>();
        builder.Services.AddSingleton<LoopbackSender>();
        builder.Services.AddHostedService(services => services.GetRequiredService<LoopbackSender>());
        builder.Services.AddHealthChecks()
            .AddCheck<PayloadFilesHealthCheck>("payload-files", tags: ["ready"]);
        return builder;
    }
}
