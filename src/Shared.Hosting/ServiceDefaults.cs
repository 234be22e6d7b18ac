using System.IO.Compression;
using System.Net;
using Microsoft.AspNetCore.Connections;
using Microsoft.AspNetCore.Hosting;
using Microsoft.AspNetCore.Hosting.Server;
using Microsoft.AspNetCore.Hosting.Server.Features;
using Microsoft.AspNetCore.Http.Timeouts;
using Microsoft.AspNetCore.ResponseCompression;
using Microsoft.AspNetCore.Server.Kestrel.Core;
using Microsoft.AspNetCore.Server.Kestrel.Transport.Sockets;
using ProtocolBench.Shared.Hosting.Budget;
using ProtocolBench.Shared.Hosting.Operations;

namespace ProtocolBench.Shared.Hosting;

/// <summary>What every ProtocolBench service has: its two endpoints, quiet logging, timeouts and the stdin lifeline.</summary>
public static class ServiceDefaults
{
    /// <summary>
    /// A builder whose content root is the binary's folder, so appsettings.json is found whatever the working
    /// directory (dotnet run, the launcher, a double-click in an IDE).
    /// </summary>
    public static WebApplicationBuilder CreateBuilder(string[] args)
    {
        AppDomain.CurrentDomain.UnhandledException += ExplainStartupFailure;
        return WebApplication.CreateBuilder(new WebApplicationOptions { Args = args, ContentRootPath = AppContext.BaseDirectory });
    }

    /// <summary>
    /// A setting that stops the service before it listens (a missing certificate, a malformed connection string) is the
    /// user's to fix: one message saying what and how, exit code 2, instead of an unhandled exception and its stack.
    /// </summary>
    private static void ExplainStartupFailure(object? sender, UnhandledExceptionEventArgs e)
    {
        if (e.ExceptionObject is InvalidOperationException or OptionsValidationException or ArgumentException)
        {
            Console.Error.WriteLine($"{AppDomain.CurrentDomain.FriendlyName.Replace("ProtocolBench.", "")}: cannot start: {((Exception)e.ExceptionObject).Message}");
            Console.Error.Flush();
            Environment.Exit(2);
        }
    }

    public static WebApplicationBuilder AddServiceDefaults(this WebApplicationBuilder builder)
    {
        // Measured paths log nothing; startup facts (seeding time) still reach the console.
        builder.Logging.ClearProviders();
        builder.Logging.AddSimpleConsole(o => o.SingleLine = true);
        builder.Logging.SetMinimumLevel(LogLevel.Warning);
        builder.Logging.AddFilter("ProtocolBench", LogLevel.Information);
        // A database fault is logged once per call in one line (the connection or command that failed); EF Core's query and
        // save loggers would repeat it with a 3 KB stack trace. An unexpected exception is still logged by each service.
        builder.Logging.AddFilter("Microsoft.EntityFrameworkCore.Query", LogLevel.Critical);
        builder.Logging.AddFilter("Microsoft.EntityFrameworkCore.Update", LogLevel.Critical);
        // A failed start (a busy port) is explained in one message by RunServiceAsync; the host's own stack trace is noise.
        builder.Logging.AddFilter("Microsoft.Extensions.Hosting.Internal.Host", LogLevel.None);

        builder.Services.AddOptions<EndpointOptions>()
            .BindConfiguration(EndpointOptions.Section)
            .Validate(o => IPAddress.TryParse(o.Address, out _), "Endpoints:Address must be an IP address.")
            .Validate(o => o.HttpPort is >= 0 and < 65536 && o.HttpsPort is >= 0 and < 65536, "Endpoints ports must be 0..65535 (0: any free port).")
            .Validate(o => o.HttpPort != o.HttpsPort || o.HttpPort == 0, "Endpoints:HttpPort and HttpsPort must differ.")
            .ValidateOnStart();
        builder.Services.AddOptions<CertificateOptions>().BindConfiguration(CertificateOptions.Section);
        builder.Services.Configure<HostOptions>(o => o.ShutdownTimeout = TimeSpan.FromSeconds(10));
        // Every HTTP request is bounded on the server too (504 after Requests:TimeoutSeconds); gRPC has its own maximum deadline.
        var timeout = RequestTimeout(builder.Configuration);
        builder.Services.AddRequestTimeouts(o => o.DefaultPolicy = new RequestTimeoutPolicy
        {
            Timeout = timeout,
            TimeoutStatusCode = StatusCodes.Status504GatewayTimeout,
        });
        builder.Services.AddHostedService<StdinLifeline>();
        builder.Services.AddSingleton<ResponseBudget>();
        // Kestrel's buffers come from a pool that lets go of them after a burst (replaces Kestrel's own, registered before).
        builder.Services.AddSingleton<ReleasingMemoryPoolFactory>();
        builder.Services.AddSingleton<IMemoryPoolFactory<byte>>(services => services.GetRequiredService<ReleasingMemoryPoolFactory>());
        builder.Services.AddSingleton<MemoryReclaimer>();
        builder.Services.AddSingleton<ConnectionBursts>();
        if (CompressionOptions.IsEnabled(builder.Configuration))
        {
            builder.Services.AddResponseCompression(o =>
            {
                o.EnableForHttps = true;
                o.Providers.Add<BrotliCompressionProvider>();
                o.Providers.Add<GzipCompressionProvider>();
                o.MimeTypes = [.. ResponseCompressionDefaults.MimeTypes, "application/graphql-response+json"];
            });
            // zlib's default level (6) and .NET's "optimal" Brotli (quality 4), as most servers and libraries compress.
            builder.Services.Configure<BrotliCompressionProviderOptions>(o => o.Level = CompressionLevel.Optimal);
            builder.Services.Configure<GzipCompressionProviderOptions>(o => o.Level = CompressionLevel.Optimal);
        }

        builder.WebHost.ConfigureKestrel(ConfigureKestrel);
        builder.Services.Configure<SocketTransportOptions>(o => o.MaxReadBufferSize = InputBufferBytes);
        return builder;
    }

    /// <summary>Requests:TimeoutSeconds, 30 unless set: the longest any HTTP request may take on the server.</summary>
    public static TimeSpan RequestTimeout(IConfiguration configuration) =>
        TimeSpan.FromSeconds(configuration.GetValue("Requests:TimeoutSeconds", 30));

    /// <summary>
    /// Response compression, when the service runs with it (Compression:Enabled; the commands' --compression): right after
    /// the exception handler, so that everything after it writes through it (the budget counts the uncompressed size).
    /// gRPC compresses each message itself (grpc-encoding) and does not use it.
    /// </summary>
    public static WebApplication UseResponseCompressionWhenEnabled(this WebApplication app)
    {
        if (CompressionOptions.IsEnabled(app.Configuration))
        {
            app.UseResponseCompression();
        }

        return app;
    }

    /// <summary>
    /// What a connection may have received and the service not yet read, in each of Kestrel's input buffers (the socket's,
    /// and TLS's on HTTPS): 64 KiB, where Kestrel's default is 1 MiB; the rest waits in the kernel, and TCP's window stops
    /// the client. What a client sends while the service does not read it (a hub's messages behind its one invocation at a
    /// time) stays in these buffers, and nothing bounds the connections: 300 hub connections each blocked behind an unread
    /// PDF took 1.5 MB of pings each and held +422 to +432 MiB; with 64 KiB, +164 MiB (the PDFs' own +90 MiB within it).
    /// </summary>
    public const int InputBufferBytes = 64 * 1024;

    /// <summary>How long an idle connection stays open: Kestrel's keep-alive, and the loopback sender's.</summary>
    public static readonly TimeSpan KeepAliveTimeout = TimeSpan.FromSeconds(130);

    /// <summary>
    /// Checks that every endpoint is bound to an operation (<see cref="ServedOperations"/>), initializes the database,
    /// starts listening, prints where, and runs until stopped. Returns the exit code.
    /// </summary>
    public static async Task<int> RunServiceAsync(this WebApplication app, string serviceName)
    {
        if (await ServedOperations.CheckAsync(app, serviceName) is { } exit)
        {
            return exit;
        }

        var endpoints = app.Services.GetRequiredService<IOptions<EndpointOptions>>().Value;
        try
        {
            await app.InitializeLibraryDbAsync(app.Lifetime.ApplicationStopping);
            await app.StartAsync();
        }
        catch (IOException e) when (e.Message.Contains("address already in use", StringComparison.OrdinalIgnoreCase)
                                    || e.InnerException?.GetType().Name == "AddressInUseException")
        {
            // Kestrel's message names the address it could not bind ("Failed to bind to address http://127.0.0.1:5100: ...").
            await Console.Error.WriteLineAsync(
                $"{serviceName}: cannot listen: {e.Message}\n" +
                "The port is taken by another process. Stop it, or choose other ports: --Endpoints:HttpPort=N --Endpoints:HttpsPort=M " +
                "(and --Endpoints:SenderPort=K for the loopback sender; 0: any free port)");
            return 3;
        }
        catch (Exception e) when (e is InvalidOperationException or OptionsValidationException or TimeoutException or System.Data.Common.DbException)
        {
            await Console.Error.WriteLineAsync($"{serviceName}: cannot start: {e.Message}");
            return 2;
        }

        // The ports actually bound: with port 0 the kernel chose them, and the launcher reads them from this line.
        var (http, https) = BoundPorts(app);
        var database = app.Services.GetRequiredService<IOptions<DatabaseOptions>>().Value.Describe();
        var sender = app.Services.GetService<LoopbackSender>()?.Port is { } port ? $", tcp://{endpoints.Address}:{port} [loopback sender]" : "";
        Console.WriteLine(
            $"{serviceName} ready (pid {Environment.ProcessId}): http://{endpoints.Address}:{http} " +
            $"[{Describe(endpoints.CleartextProtocols)}], https://{endpoints.Address}:{https} [h2, http/1.1]{sender}; {database}; " +
            (CompressionOptions.IsEnabled(app.Configuration) ? "responses compressed when asked; " : "") +
            $".NET {Environment.Version}, {(System.Runtime.GCSettings.IsServerGC ? "server" : "workstation")} GC");
        await app.WaitForShutdownAsync();
        return 0;
    }

    /// <summary>The HTTP and HTTPS ports Kestrel listens on, in the order <see cref="ConfigureKestrel"/> declares them.</summary>
    private static (int Http, int Https) BoundPorts(WebApplication app)
    {
        var addresses = app.Services.GetRequiredService<IServer>().Features.Get<IServerAddressesFeature>()!.Addresses;
        int PortOf(string scheme) => addresses.Select(a => new Uri(a)).First(u => u.Scheme == scheme).Port;
        return (PortOf("http"), PortOf("https"));
    }

    private static void ConfigureKestrel(WebHostBuilderContext context, KestrelServerOptions kestrel)
    {
        var endpoints = kestrel.ApplicationServices.GetRequiredService<IOptions<EndpointOptions>>().Value;
        var certificatePath = kestrel.ApplicationServices.GetRequiredService<IOptions<CertificateOptions>>().Value.Path;
        var address = IPAddress.Parse(endpoints.Address);

        kestrel.AddServerHeader = false;
        kestrel.Limits.MaxRequestBodySize = Limits.RequestBodyMaxBytes;
        kestrel.Limits.MaxRequestBufferSize = InputBufferBytes;
        kestrel.Limits.RequestHeadersTimeout = TimeSpan.FromSeconds(10);
        kestrel.Limits.KeepAliveTimeout = KeepAliveTimeout;
        // Kestrel's default, set here because the response budget relies on it: a reader slower than 240 B/s after 5 s,
        // including an HTTP/2 reader that never opens its flow-control window, loses its connection (measured: 6.9 s).
        kestrel.Limits.MinResponseDataRate = new MinDataRate(bytesPerSecond: 240, gracePeriod: TimeSpan.FromSeconds(5));

        kestrel.Listen(address, endpoints.HttpPort, o =>
        {
            o.Protocols = endpoints.CleartextProtocols;
            ConnectionProgress.Count(o);
        });
        kestrel.Listen(address, endpoints.HttpsPort, o =>
        {
            o.Protocols = HttpProtocols.Http1AndHttp2;
            o.UseHttps(ProjectCertificate.LoadServer(certificatePath));
            ConnectionProgress.Count(o);
        });
    }

    private static string Describe(HttpProtocols protocols) => protocols switch
    {
        HttpProtocols.Http2 => "h2c prior knowledge",
        HttpProtocols.Http1 => "http/1.1",
        _ => protocols.ToString(),
    };
}
