using ProtocolBench.Grpc.Service;
using ProtocolBench.Shared.Hosting.Answers;

var builder = ServiceDefaults.CreateBuilder(args);
builder.AddServiceDefaults();
builder.AddLibraryDb();
builder.AddPayloadFiles();
builder.AddGrpcApi();

// No exception handler, compression or request timeout here: gRPC answers every failure with a status in its trailers,
// compresses each message itself (grpc-encoding) and bounds a call by its deadline (Grpc:MaxCallDuration).
var app = builder.Build();
app.UseResponseBudget();
app.UseSplicedAnswers();
app.Use(ClientResetReader.Install);
app.MapGrpcApi();
app.MapServiceHealth();
return await app.RunServiceAsync("Grpc.Service");
