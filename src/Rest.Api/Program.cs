using ProtocolBench.Rest.Api;

var builder = ServiceDefaults.CreateBuilder(args);
builder.AddServiceDefaults();
builder.AddLibraryDb();
builder.AddPayloadFiles();
builder.AddRestApi();

var app = builder.Build();
app.MapRestApi();
return await app.RunServiceAsync("Rest.Api");
