// `npm test`'s pretest: brings up what the suite needs before anything runs, so `npm ci && npm test`
// passes on a fresh machine. Redis and RabbitMQ are started when they do not answer; Chromium (the
// dashboard's browser test), promtool (the Prometheus checks), redis-server/redis-cli (private Redis and
// cluster tests), openssl and curl (the README's commands) are installed with apt-get when this runs as
// root on Debian. What it cannot do, it names in one line (the exact command to run) and exits 1.
// SWITCHYARD_PREREQS_INSTALL=0: install nothing, only say what is missing.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync } from "node:fs";
import { connect } from "node:net";
import process from "node:process";
import { setTimeout as sleep } from "node:timers/promises";

const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const mayInstall =
  process.env.SWITCHYARD_PREREQS_INSTALL !== "0" && process.getuid?.() === 0 && onPath("apt-get");

function onPath(command) {
  return spawnSync("sh", ["-c", `command -v ${command}`], { stdio: "ignore" }).status === 0;
}

function answers(port) {
  return new Promise((resolve) => {
    const socket = connect({ host: "127.0.0.1", port });
    const done = (ok) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(1000, () => done(false));
    socket.once("connect", () => done(true));
    socket.once("error", () => done(false));
  });
}

async function waitFor(port, seconds) {
  for (let i = 0; i < seconds; i++) {
    if (await answers(port)) return true;
    await sleep(1000);
  }
  return false;
}

function fail(line) {
  process.stderr.write(`test-prereqs: ${line}\n`);
  process.exit(1);
}

function sh(command) {
  process.stdout.write(`test-prereqs: ${command}\n`);
  return spawnSync("sh", ["-c", command], { stdio: ["ignore", "ignore", "inherit"] }).status === 0;
}

let aptUpdated = false;
/** Install Debian `packages`, or stop naming the command that would. */
function aptInstall(packages, why, extra = "") {
  const command = `apt-get install -y -qq ${extra}${packages}`.replace(/\s+/g, " ");
  if (!mayInstall) fail(`${why}: run "apt-get update && ${command}" (as root), then npm test again`);
  if (!aptUpdated) aptUpdated = sh("apt-get update -qq");
  if (!sh(`DEBIAN_FRONTEND=noninteractive ${command}`)) fail(`${why}: "${command}" failed`);
}

// Commands first: the services below are started with some of them.
if (!onPath("redis-server") || !onPath("redis-cli"))
  aptInstall("redis-server", "redis-server and redis-cli are not on PATH (private Redis and cluster tests)");
if (!existsSync(CHROMIUM))
  aptInstall("chromium", `no Chromium at ${CHROMIUM} (the dashboard's browser test)`);
if (!onPath("promtool"))
  aptInstall(
    "prometheus",
    "promtool is not on PATH (the deploy/prometheus checks)",
    "--no-install-recommends ",
  );
if (!onPath("openssl") || !onPath("curl"))
  aptInstall("openssl curl", "openssl or curl is missing (the README's commands)");

const REDIS_START =
  'redis-server --daemonize yes --bind 127.0.0.1 -::1 --port 6379 --save "" --appendonly no ' +
  "--dir /var/lib/redis --logfile /var/log/redis/ci.log";
if (!(await answers(6379))) {
  mkdirSync("/var/lib/redis", { recursive: true });
  mkdirSync("/var/log/redis", { recursive: true });
  if (!sh(REDIS_START) || !(await waitFor(6379, 60)))
    fail(`Redis does not answer on 127.0.0.1:6379 and could not be started: run ${REDIS_START}`);
}

if (!(await answers(5672))) {
  if (!onPath("rabbitmq-server")) aptInstall("rabbitmq-server", "RabbitMQ does not answer on 127.0.0.1:5672");
  if (!sh("rabbitmq-server -detached") || !(await waitFor(5672, 120)))
    fail(
      "RabbitMQ does not answer on 127.0.0.1:5672 and could not be started: run rabbitmq-server -detached",
    );
  // The port opens before the broker accepts logins.
  sh("timeout 120 rabbitmqctl await_startup >/dev/null 2>&1 || true");
}
