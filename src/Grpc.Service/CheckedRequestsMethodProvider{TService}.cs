using System.Reflection;
using Grpc.AspNetCore.Server.Model;

namespace ProtocolBench.Grpc.Service;

/// <summary>
/// Binds each service the way grpc-dotnet's own (internal) binder does — the generated BindService method, the handler
/// found by name on the service — with each request marshaller wrapped by <see cref="CheckedRequests.Checked{T}"/>, and a
/// file's reply marshaller by <see cref="SplicedReplies.For{T}"/>.
/// Written here because grpc-dotnet has no option for it; it replaces grpc-dotnet's provider for every service.
/// </summary>
internal sealed class CheckedRequestsMethodProvider<TService> : IServiceMethodProvider<TService> where TService : class
{
    public void OnServiceMethodDiscovery(ServiceMethodProviderContext<TService> context)
    {
        var declaring = typeof(TService);
        while (declaring is not null && declaring.GetCustomAttribute<BindServiceMethodAttribute>(inherit: false) is null)
        {
            declaring = declaring.BaseType;
        }

        if (declaring?.GetCustomAttribute<BindServiceMethodAttribute>(inherit: false) is not { } bind)
        {
            return;
        }

        var bindService = bind.BindType.GetMethod(bind.BindMethodName, BindingFlags.Public | BindingFlags.NonPublic | BindingFlags.Static,
                              [typeof(ServiceBinderBase), declaring])
                          ?? throw new InvalidOperationException($"{bind.BindType}.{bind.BindMethodName} was not found.");
        bindService.Invoke(null, [new Binder(context), null]);
    }

    private sealed class Binder(ServiceMethodProviderContext<TService> context) : ServiceBinderBase
    {
        public override void AddMethod<TRequest, TResponse>(Method<TRequest, TResponse> method, UnaryServerMethod<TRequest, TResponse>? handler)
        {
            var (invoker, metadata) = Handler<UnaryServerMethod<TService, TRequest, TResponse>>(method.Name, typeof(TRequest), typeof(ServerCallContext));
            context.AddUnaryMethod(Checked(method), metadata, invoker);
        }

        public override void AddMethod<TRequest, TResponse>(Method<TRequest, TResponse> method, ServerStreamingServerMethod<TRequest, TResponse>? handler)
        {
            var (invoker, metadata) = Handler<ServerStreamingServerMethod<TService, TRequest, TResponse>>(
                method.Name, typeof(TRequest), typeof(IServerStreamWriter<TResponse>), typeof(ServerCallContext));
            context.AddServerStreamingMethod(Checked(method), metadata, invoker);
        }

        public override void AddMethod<TRequest, TResponse>(Method<TRequest, TResponse> method, ClientStreamingServerMethod<TRequest, TResponse>? handler)
        {
            var (invoker, metadata) = Handler<ClientStreamingServerMethod<TService, TRequest, TResponse>>(
                method.Name, typeof(IAsyncStreamReader<TRequest>), typeof(ServerCallContext));
            context.AddClientStreamingMethod(Checked(method), metadata, invoker);
        }

        public override void AddMethod<TRequest, TResponse>(Method<TRequest, TResponse> method, DuplexStreamingServerMethod<TRequest, TResponse>? handler)
        {
            var (invoker, metadata) = Handler<DuplexStreamingServerMethod<TService, TRequest, TResponse>>(
                method.Name, typeof(IAsyncStreamReader<TRequest>), typeof(IServerStreamWriter<TResponse>), typeof(ServerCallContext));
            context.AddDuplexStreamingMethod(Checked(method), metadata, invoker);
        }

        private static Method<TRequest, TResponse> Checked<TRequest, TResponse>(Method<TRequest, TResponse> method) =>
            new(method.Type, method.ServiceName, method.Name, CheckedRequests.Checked(method.RequestMarshaller), SplicedReplies.For(method.ResponseMarshaller));

        /// <summary>The service's public override of the generated method, and its attributes as endpoint metadata (as grpc-dotnet adds them).</summary>
        private static (TDelegate Invoker, List<object> Metadata) Handler<TDelegate>(string name, params Type[] parameters) where TDelegate : Delegate
        {
            var handler = typeof(TService).GetMethod(name, BindingFlags.Public | BindingFlags.Instance, parameters)
                          ?? throw new InvalidOperationException($"Could not find '{name}' on {typeof(TService)}.");
            List<object> metadata =
            [
                .. typeof(TService).GetCustomAttributes(inherit: true),
                .. handler.GetCustomAttributes(inherit: true),
                new HttpMethodMetadata(["POST"], acceptCorsPreflight: true),
            ];
            return ((TDelegate)Delegate.CreateDelegate(typeof(TDelegate), handler), metadata);
        }
    }
}
