using ProtocolBench.Grpc.Service;
using ProtocolBench.Shared.Hosting;

var builder = ServiceDefaults.CreateBuilder(args);
builder.AddServiceDefaults();
builder.AddLibraryDb();
builder.AddPayloadFiles();
builder.AddGrpcApi();

var app = builder.Build();
app.MapGrpcApi();
return await app.RunServiceAsync("Grpc.Service");
