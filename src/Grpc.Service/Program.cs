using ProtocolBench.Grpc.Service;

var builder = ServiceDefaults.CreateBuilder(args);
builder.AddServiceDefaults();
builder.AddLibraryDb();
builder.AddPayloadFiles();
builder.AddGrpcApi();

var app = builder.Build();
app.MapGrpcApi();
return await app.RunServiceAsync("Grpc.Service");
