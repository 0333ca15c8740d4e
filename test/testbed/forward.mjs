// Byte-for-byte stream forwarder between loopback TCP and unix sockets, for the test bed's vCluster
// control planes (lib/vclusterPod.sh): a unix socket is a file, so it crosses from the machine's
// network namespace into a control plane's and back, where no TCP route does.
//
//   node forward.mjs LISTEN=CONNECT...
//   LISTEN, CONNECT: tcp:IPV4:PORT or unix:/path. On the machine only 127.0.0.1 is used; a pod's
//   address only inside the gateway's network namespace, where the test bed put it (gateway.sh).
//
// TLS passes through untouched: each end sees the other's certificate.
import net from "node:net";
import fs from "node:fs";

function parse(spec) {
  const m = /^tcp:(\d{1,3}(?:\.\d{1,3}){3}):(\d+)$/.exec(spec);
  if (m) return { host: m[1], port: Number(m[2]) };
  if (spec.startsWith("unix:")) return { path: spec.slice(5) };
  throw new Error(`not a tcp:IPV4:PORT or unix:PATH address: ${spec}`);
}

function forward(listen, connect) {
  const server = net.createServer((client) => {
    const upstream = net.connect(connect);
    client.pipe(upstream).pipe(client);
    const close = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on("error", close);
    upstream.on("error", close);
  });
  if (listen.path) fs.rmSync(listen.path, { force: true });
  server.listen(listen, () =>
    console.log(`${new Date().toISOString()} forwarding ${JSON.stringify(listen)} -> ${JSON.stringify(connect)}`),
  );
  server.on("error", (e) => {
    console.error(`${new Date().toISOString()} ${JSON.stringify(listen)}: ${e.message}`);
    process.exit(1);
  });
}

for (const arg of process.argv.slice(2)) {
  const [listen, connect] = arg.split("=");
  forward(parse(listen), parse(connect));
}
for (const signal of ["SIGTERM", "SIGINT"]) process.on(signal, () => process.exit(0));
