using System.IO.Compression;
using Grpc.AspNetCore.HealthChecks;
using Grpc.AspNetCore.Server.Model;
using Grpc.Net.Compression;
using Microsoft.Extensions.DependencyInjection.Extensions;
using ProtocolBench.Grpc.Service.Budget;
using ProtocolBench.Grpc.Service.Operations;
using ProtocolBench.Grpc.Service.Services;
using ProtocolBench.Shared.Hosting.Operations;

namespace ProtocolBench.Grpc.Service;

public static class GrpcApiExtensions
{
    private const int MaxSendMessageBytes = 16 * 1024 * 1024;

    public static WebApplicationBuilder AddGrpcApi(this WebApplicationBuilder builder)
    {
        builder.Services.AddOptions<GrpcApiOptions>()
            .BindConfiguration(GrpcApiOptions.Section)
            .Validate(o => o.MaxCallDuration > TimeSpan.Zero, "Grpc:MaxCallDuration must be positive.")
            .ValidateOnStart();
        builder.Services.AddSingleton<ErrorInterceptor>();
        builder.Services.AddSingleton<ResponseBudgetInterceptor>();
        builder.Services.AddGrpc(o =>
            {
                // Both limits set explicitly: requests are capped like every protocol's body (docs/limits-and-errors.md); replies must fit the 3.4 MiB PDF.
                o.MaxReceiveMessageSize = Limits.RequestBodyMaxBytes;
                o.MaxSendMessageSize = MaxSendMessageBytes;
                // A client sees the domain message or "Exception was thrown by handler.", never exception details.
                o.EnableDetailedErrors = false;
                // grpc-dotnet's own two, checked (CheckedRequests.cs): corrupt data is INVALID_ARGUMENT.
                o.CompressionProviders =
                [
                    // The level is for replies (Compression:Enabled), as REST's and GraphQL's: zlib's default, 6.
                    new CheckedCompressionProvider(new GzipCompressionProvider(CompressionLevel.Optimal)),
                    new CheckedCompressionProvider(new DeflateCompressionProvider(CompressionLevel.Fastest)),
                ];
                // Compression:Enabled: replies gzip-compressed when the call accepts gzip (grpc-accept-encoding).
                o.ResponseCompressionAlgorithm = CompressionOptions.IsEnabled(builder.Configuration) ? "gzip" : null;
            })
            // Only the project's services: the health Watch stream is meant to outlive any maximum call duration.
            .AddServiceOptions<PayloadsService>(o =>
            {
                o.Interceptors.Add<ErrorInterceptor>();
                o.Interceptors.Add<ResponseBudgetInterceptor>();
            })
            .AddServiceOptions<AuthorsService>(o =>
            {
                o.Interceptors.Add<ErrorInterceptor>();
                o.Interceptors.Add<ResponseBudgetInterceptor>();
            })
            .AddServiceOptions<ShapesService>(o =>
            {
                o.Interceptors.Add<ErrorInterceptor>();
                o.Interceptors.Add<ResponseBudgetInterceptor>();
            });

        // grpc.health.v1.Health runs the same "ready" checks as /healthz: database and payload files.
        builder.Services.AddGrpcHealthChecks(o =>
        {
            o.Services.Map("", IsReadiness);
            o.Services.Map(PayloadsService.ServiceName, IsReadiness);
            o.Services.Map(AuthorsService.ServiceName, IsReadiness);
            o.Services.Map(ShapesService.ServiceName, IsReadiness);
        });
        builder.Services.AddGrpcReflection();
        builder.Services.AddSingleton<IOperationBindings, GrpcOperationBindings>();

        // Every service (ours, health, reflection) bound with checked request marshallers instead of grpc-dotnet's binder;
        // last, because each AddGrpc* call above registers grpc-dotnet's binder again.
        builder.Services.RemoveAll(typeof(IServiceMethodProvider<>));
        builder.Services.AddSingleton(typeof(IServiceMethodProvider<>), typeof(CheckedRequestsMethodProvider<>));
        return builder;
    }

    public static WebApplication MapGrpcApi(this WebApplication app)
    {
        app.MapGrpcService<PayloadsService>();
        app.MapGrpcService<AuthorsService>();
        app.MapGrpcService<ShapesService>();
        app.MapGrpcHealthChecksService();
        // Reflection in every environment, not only Development: it is how grpcurl and other reflection clients
        // discover the services without a copy of the .proto.
        app.MapGrpcReflectionService();
        return app;
    }

    private static bool IsReadiness(HealthCheckMapContext check) => check.Tags.Contains("ready");
}
