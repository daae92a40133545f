import dns2 from 'dns2';

/**
 * What the test server answers for a name: TXT records (a record given as several strings is sent
 * so, as DNS carries values over 255 bytes), a server failure, or nothing at all.
 */
export type DnsAnswer = { txt: Array<string | string[]> } | 'servfail' | 'silent';

const { Packet } = dns2;

/**
 * A real DNS server on loopback (UDP) answering TXT questions from `zone`, a map the test
 * changes as it goes: a name it holds answers its records, `servfail` a server failure, `silent`
 * nothing (the resolver times out), any other name NXDOMAIN. `servers` is what DNS_SERVERS takes.
 */
export async function startTestDns() {
  const zone = new Map<string, DnsAnswer>();
  const asked: string[] = [];
  const server = dns2.createServer({
    udp: true,
    handle: (request, send) => {
      const response = Packet.createResponseFromRequest(request);
      const [question] = request.questions;
      const name = (question?.name ?? '').toLowerCase();
      asked.push(name);
      const answer = zone.get(name);
      if (answer === 'silent') return;
      if (answer === 'servfail') {
        response.header.rcode = Packet.RCODE.SERVFAIL;
      } else if (!answer) {
        response.header.rcode = Packet.RCODE.NXDOMAIN;
      } else if (question?.type === Packet.TYPE.TXT) {
        for (const data of answer.txt) {
          response.answers.push(Packet.createResourceFromQuestion(question, { ttl: 1, data }));
        }
      }
      send(response);
    },
  });
  const addresses = await server.listen({ udp: { port: 0, address: '127.0.0.1' } });
  const port = addresses.udp!.port;
  return { zone, asked, port, servers: `127.0.0.1:${port}`, close: () => server.close() };
}
