// Regression: docker-compose.yml had no healthchecks and no `restart:` (a web started before Redis
// exited 69 and stayed down), published Redis's and RabbitMQ's standard ports (colliding with a local
// Redis or RabbitMQ), advertised a Kafka listener (kafka:9092) that a client on the host cannot reach,
// and built the image twice (web and worker each had `build:`). No Docker engine runs here: the file is
// parsed and checked for each of those.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { ROOT } from "../support/built-dist.ts";

interface Service {
  image?: string;
  build?: unknown;
  restart?: string;
  ports?: string[];
  healthcheck?: { test?: unknown; disable?: boolean };
  depends_on?: Record<string, { condition: string }> | string[];
  environment?: Record<string, string>;
}

const compose = parse(readFileSync(join(ROOT, "docker-compose.yml"), "utf8")) as {
  services: Record<string, Service>;
};
const services = compose.services;
const service = (name: string): Service => {
  const s = services[name];
  if (!s) throw new Error(`docker-compose.yml has no service "${name}"`);
  return s;
};

/** The host side of a `ports:` entry ("127.0.0.1:16379:6379" → 16379, "3000:3000" → 3000). */
function hostPort(entry: string): number {
  const parts = entry.split(":");
  return Number(parts.length === 3 ? parts[1] : parts.length === 2 ? parts[0] : Number.NaN);
}

describe("docker-compose.yml", () => {
  it("gives the services the app needs a healthcheck, and every long-running service a restart policy", () => {
    for (const name of ["redis", "rabbitmq", "kafka"])
      expect(service(name).healthcheck?.test, name).toBeDefined();
    for (const [name, s] of Object.entries(services)) expect(s.restart, `${name}: restart`).toBeDefined();
  });

  it("starts web and worker only once Redis, RabbitMQ and Kafka are healthy", () => {
    for (const app of ["web", "worker"]) {
      const deps = service(app).depends_on;
      expect(Array.isArray(deps), `${app}: depends_on with conditions`).toBe(false);
      for (const dep of ["redis", "rabbitmq", "kafka"])
        expect((deps as Record<string, { condition: string }>)[dep]?.condition, `${app} → ${dep}`).toBe(
          "service_healthy",
        );
    }
  });

  it("builds the image once: one service builds it, web and worker run the same image", () => {
    expect(Object.values(services).filter((s) => s.build !== undefined)).toHaveLength(1);
    expect(service("web").image).toBeDefined();
    expect(service("worker").image).toBe(service("web").image);
  });

  it("publishes no host port a local Redis, RabbitMQ or Kafka already uses", () => {
    const taken = [6379, 5672, 15672, 9092, 9093];
    for (const [name, s] of Object.entries(services))
      for (const entry of s.ports ?? []) expect(taken, `${name}: ${entry}`).not.toContain(hostPort(entry));
  });

  it("advertises only Kafka listeners their clients can reach", () => {
    const kafka = service("kafka");
    const published = (kafka.ports ?? []).map(hostPort);
    const advertised = String(kafka.environment?.KAFKA_ADVERTISED_LISTENERS ?? "").split(",");
    expect(advertised.length).toBeGreaterThan(0);
    for (const listener of advertised) {
      const { hostname, port } = new URL(listener.replace(/^[A-Z_]+:\/\//, "tcp://"));
      // Either the compose network's name (for web and worker), not published, or the host's, published as is.
      if (hostname === "kafka") expect(published, listener).not.toContain(Number(port));
      else {
        expect(hostname, listener).toBe("localhost");
        expect(published, listener).toContain(Number(port));
      }
    }
  });
});
