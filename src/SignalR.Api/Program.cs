using ProtocolBench.SignalR.Api;

var builder = ServiceDefaults.CreateBuilder(args);
builder.AddServiceDefaults();
builder.AddLibraryDb();
builder.AddPayloadFiles();
builder.AddSignalRApi();

var app = builder.Build();
app.UseExceptionHandler();
app.UseResponseCompressionWhenEnabled();
app.UseMalformedRequestAnswers();
app.UseRequestTimeouts();
app.UseResponseBudget();
app.UseWebSockets();
app.Use(WholeHubMessages.Wrap);
app.MapSignalRApi();
app.MapServiceHealth();
return await app.RunServiceAsync("SignalR.Api");
