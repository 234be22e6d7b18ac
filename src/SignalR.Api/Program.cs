using ProtocolBench.SignalR.Api;

var builder = ServiceDefaults.CreateBuilder(args);
builder.AddServiceDefaults();
builder.AddLibraryDb();
builder.AddPayloadFiles();
builder.AddSignalRApi();

var app = builder.Build();
app.MapSignalRApi();
return await app.RunServiceAsync("SignalR.Api");
