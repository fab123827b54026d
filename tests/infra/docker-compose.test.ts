/**
 * docker-compose.yml and the Dockerfile must stay consistent with the app's configuration: every environment
 * variable config/app-config.ts reads (found by a regex, so a new setting fails here until it is wired) must reach
 * the api and the worker with values that point at the right services. And they keep the production shape: no
 * committed secret, NODE_ENV=production, only the reverse proxy published to the world (the api behind it, believing
 * X-Forwarded-For from the proxy's address alone), the api on a database role that is not the owner, compiled
 * JavaScript at run time.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { SEARCH_ATTRIBUTES } from '../../devtools/temporal/dev-server';
import { REQUEST_SEARCH_ATTRIBUTE_KEYS } from '../../workflows/search-attributes';

const root = fileURLToPath(new URL('../..', import.meta.url));
const read = (file: string) => fs.readFileSync(path.join(root, file), 'utf8');

/**
 * Settings that only matter on a developer machine: the in-process mail outbox of `npm start`, and the switch for the
 * development accounts (refused with NODE_ENV=production).
 */
/** CLOCK_DAY_SECONDS compresses the request clocks' days for tests and demonstrations: never in production. */
/** PGPORT moves the default database address (and the embedded PostgreSQL); compose names DATABASE_URL instead. */
const DEVELOPMENT_ONLY = new Set(['OUTBOX_PORT', 'SEED_DEV_ACCOUNTS', 'CLOCK_DAY_SECONDS', 'PGPORT']);
/**
 * Settings with no value that fits every site: compose must pass them through (`${NAME:-}`), the operator fills them
 * in. Single sign-on takes the IdP's metadata URL or its entry point and certificate (config/app-config.ts).
 */
const SITE_SPECIFIC = new Set(['SAML_IDP_METADATA_URL', 'SAML_IDP_ENTRY_POINT', 'SAML_IDP_CERT', 'SAML_IDP_ENTITY_ID', 'SAML_SP_ENTITY_ID', 'MAIL_FROM', 'REPLY_TO_DOMAIN', 'REPLY_TOKEN_SECRET']);
/** The office's own facts (config/app-config.ts PRODUCTION_REQUIRED_SETTINGS): compose's `${NAME:?message}`, no sample. */
const OFFICE_FACTS = ['PUBLIC_URL', 'RISK_MANAGEMENT_PHONE', 'RISK_MANAGEMENT_EMAIL'];
/** Settings of the one-shot migrate service only: the database owner's connection never reaches the api or the worker. */
const MIGRATE_ONLY = new Set(['MIGRATION_DATABASE_URL']);
/** Settings of the worker only: the office's signing key, which the internet-facing API must never hold. */
const WORKER_ONLY = new Set(['LETTER_SIGNING', 'LETTER_SIGNING_P12', 'LETTER_SIGNING_P12_PASSWORD']);
/** Secrets the operator must supply: compose's `${NAME:?message}` (no default may be committed). */
const REQUIRED_SECRETS = ['JWT_SECRET', 'POSTGRES_PASSWORD', 'PORTAL_DB_PASSWORD', 'PORTAL_RUNTIME_DB_PASSWORD', 'TEMPORAL_DB_PASSWORD'];

type Service = {
  image?: string;
  build?: string | { context?: string; dockerfile?: string };
  command?: string | string[];
  environment?: Record<string, string | number | boolean | null> | string[];
  ports?: Array<string | number | { target: number; published?: string | number }>;
  expose?: Array<string | number>;
  depends_on?: string[] | Record<string, { condition?: string }>;
  configs?: Array<string | { source: string; target?: string }>;
  networks?: string[] | Record<string, { ipv4_address?: string } | null>;
};
type Compose = {
  services: Record<string, Service>;
  configs?: Record<string, { content?: string; file?: string }>;
  networks?: Record<string, { ipam?: { config?: Array<{ subnet?: string }> } } | null>;
};

const compose = parse(read('docker-compose.yml'), { merge: true }) as Compose;
const dockerfile = read('Dockerfile');
const appConfigSource = read('config/app-config.ts');

/**
 * Compose interpolation as if the environment held only the required variables: ${X:-default}, ${X-default}, ${X}
 * (→ ''), ${X:?message} / ${X?message} (→ `operator-supplied-X`, what the operator must set), $$ (→ $).
 */
/** What an operator would set, where a value must have a shape (PUBLIC_URL is parsed as a URL). */
const OPERATOR_EXAMPLES: Record<string, string> = { PUBLIC_URL: 'https://coi.example.edu' };

function interpolate(value: string): string {
  return value
    .replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)(?::?\?[^}]*)\}/g, (_, name: string) => OPERATOR_EXAMPLES[name] ?? `operator-supplied-${name}`)
    .replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)(?::?-([^}]*))?\}/g, (_, _name, fallback) => fallback ?? '')
    .replace(/\$\$/g, '$');
}

function env(service: string): Record<string, string> {
  return Object.fromEntries(Object.entries(rawEnv(service)).map(([k, v]) => [k, interpolate(v)]));
}

/** A service's environment as written in the file (before interpolation). */
function rawEnv(service: string): Record<string, string> {
  const raw = compose.services[service]?.environment ?? {};
  const entries = Array.isArray(raw)
    ? raw.map((line) => {
      const i = line.indexOf('=');
      return i < 0 ? [line, ''] : [line.slice(0, i), line.slice(i + 1)];
    })
    : Object.entries(raw).map(([k, v]) => [k, v == null ? '' : String(v)]);
  return Object.fromEntries(entries);
}

function dependsOn(service: string): string[] {
  const d = compose.services[service]?.depends_on ?? [];
  return Array.isArray(d) ? d : Object.keys(d);
}

function dependsTransitively(service: string): Set<string> {
  const seen = new Set<string>();
  const visit = (name: string) => {
    for (const dep of dependsOn(name)) {
      if (!seen.has(dep)) {
        seen.add(dep);
        visit(dep);
      }
    }
  };
  visit(service);
  return seen;
}

/** [published, target, host IP ('' = every interface)] of a service's port mappings. */
function ports(service: string): Array<[number | null, number, string]> {
  return (compose.services[service]?.ports ?? []).map((p) => {
    if (typeof p === 'object') return [p.published == null ? null : Number(p.published), Number(p.target), (p as { host_ip?: string }).host_ip ?? ''];
    const parts = String(p).split(':');
    const target = Number(parts.at(-1)!.split('/')[0]);
    return [parts.length > 1 ? Number(parts.at(-2)) : null, target, parts.length > 2 ? parts.slice(0, -2).join(':') : ''];
  });
}

function commandText(service: Service | undefined): string {
  const c = service?.command;
  return Array.isArray(c) ? c.join(' ') : String(c ?? '');
}

function commandOf(service: string): string {
  return commandText(compose.services[service]);
}

const envNamesReadByTheApp = [...new Set(
  [...appConfigSource.matchAll(/env(?:\.|\[['"])([A-Z][A-Z0-9_]*)/g)].map((m) => m[1]),
)].sort();
const productionEnvNames = envNamesReadByTheApp.filter((name) => !DEVELOPMENT_ONLY.has(name) && !MIGRATE_ONLY.has(name));

/** PostgreSQL's init script (configs.postgresql-roles), and the roles it creates with the variable holding each password. */
const initScript = () => compose.configs?.['postgresql-roles']?.content ?? '';
function roles(): Array<{ name: string; passwordVariable: string; line: string }> {
  const script = initScript();
  return [...script.matchAll(/^create role (\w+) login password :'(\w+)'(.*);$/gm)].map(([line, name, psqlVar]) => {
    const variable = new RegExp(`-v ${psqlVar}="\\$\\$(\\w+)"`).exec(script)?.[1] ?? '';
    return { name, passwordVariable: variable, line };
  });
}

describe('docker-compose.yml', () => {
  it('has the expected services', () => {
    for (const name of ['postgresql', 'temporal', 'temporal-ui', 'mail', 'migrate', 'api', 'worker', 'proxy']) {
      expect(compose.services, `service ${name}`).toHaveProperty(name);
    }
  });

  it('finds the settings in config/app-config.ts', () => {
    expect(envNamesReadByTheApp).toEqual(expect.arrayContaining(['DATABASE_URL', 'TEMPORAL_ADDRESS', 'SMTP_URL', 'JWT_SECRET']));
    for (const name of DEVELOPMENT_ONLY) expect(envNamesReadByTheApp, `${name} is still read by the app`).toContain(name);
    for (const name of MIGRATE_ONLY) expect(envNamesReadByTheApp, `${name} is still read by the app`).toContain(name);
  });

  for (const service of ['api', 'worker']) {
    describe(service, () => {
      it('is built from the Dockerfile in the repository root', () => {
        const build = compose.services[service].build;
        const context = typeof build === 'string' ? build : build?.context;
        expect(context, `${service} build context`).toBe('.');
        if (typeof build === 'object' && build.dockerfile) expect(build.dockerfile).toBe('Dockerfile');
      });

      it('receives every production setting the app reads', () => {
        const missing = productionEnvNames.filter((name) => (service === 'worker' || !WORKER_ONLY.has(name))
          && (!(name in env(service)) || (env(service)[name] === '' && !SITE_SPECIFIC.has(name))));
        expect(missing, `add these to the ${service} environment in docker-compose.yml (or to DEVELOPMENT_ONLY)`).toEqual([]);
      });

      it('requires the office\'s own facts of the operator, with no sample to fall back on', () => {
        for (const name of OFFICE_FACTS) expect(rawEnv(service)[name], `${name}: \${${name}:?…}`).toMatch(new RegExp(`^\\$\\{${name}:\\?[^}]+\\}$`));
      });

      it('passes the site-specific settings (single sign-on, MAIL_FROM) through from the operator', () => {
        for (const name of SITE_SPECIFIC) {
          expect(envNamesReadByTheApp, `${name} is still read by the app`).toContain(name);
          expect(rawEnv(service)[name], name).toBe(`\${${name}:-}`);
        }
      });

      it('points DATABASE_URL at the postgresql service as the portal\'s runtime role, which does not own the database', () => {
        const url = new URL(env(service).DATABASE_URL);
        const pg = env('postgresql');
        expect(url.protocol).toMatch(/^postgres(ql)?:$/);
        expect(url.hostname).toBe('postgresql');
        expect(url.port || '5432').toBe('5432');
        const role = roles().find((r) => r.name === decodeURIComponent(url.username));
        expect(role, `the role ${url.username} is created by the init script`).toBeDefined();
        expect(role!.line).toMatch(/nosuperuser nocreatedb nocreaterole/);
        expect(decodeURIComponent(url.username)).not.toBe(pg.POSTGRES_USER);
        expect(decodeURIComponent(url.password)).toBe(pg[role!.passwordVariable]);
        expect(initScript()).not.toMatch(new RegExp(`create database \\w+ owner ${role!.name};`));
        for (const name of MIGRATE_ONLY) expect(env(service), `${name} is the migrate service's alone`).not.toHaveProperty(name);
        if (service !== 'worker') for (const name of WORKER_ONLY) expect(env(service), `${name} is the worker's alone`).not.toHaveProperty(name);
      });

      it('points at Temporal, the mail service and Chromium', () => {
        const e = env(service);
        expect(e.TEMPORAL_ADDRESS).toBe('temporal:7233');
        const smtp = new URL(e.SMTP_URL);
        expect(smtp.protocol).toBe('smtp:');
        expect(smtp.hostname).toBe('mail');
        const mailImage = compose.services.mail.image ?? '';
        const mailPorts = [...(compose.services.mail.expose ?? []).map(Number), ...ports('mail').map(([, target]) => target)];
        if (/mailpit|mailhog/.test(mailImage)) expect(Number(smtp.port)).toBe(1025);
        else expect(mailPorts).toContain(Number(smtp.port));
        expect(e.CHROMIUM_PATH).toBe('/usr/lib/chromium/chromium-headless-shell');
      });

      it('runs with NODE_ENV=production and a JWT secret the operator must supply', () => {
        expect(env(service).NODE_ENV).toBe('production');
        expect(rawEnv(service).JWT_SECRET, 'JWT_SECRET: ${JWT_SECRET:?…} (required, no committed default)').toMatch(/^\$\{JWT_SECRET:\?[^}]+\}$/);
      });

      it('starts after its dependencies', () => {
        const deps = dependsTransitively(service);
        for (const dep of ['postgresql', 'temporal', 'mail']) expect([...deps], `${service} depends_on`).toContain(dep);
      });
    });
  }

  it('runs the compiled entry points (npm run build → dist/), never tsx', () => {
    // the API's memory flags: tests/infra/api-process-flags.test.ts
    expect(commandOf('api')).toMatch(/^node( --[a-z-]+(=\S+)?)* dist\/server\.js$/);
    expect(commandOf('worker')).toMatch(/^node( --enable-source-maps)? dist\/worker\.js$/);
    expect(commandOf('migrate')).toMatch(/^node( --enable-source-maps)? dist\/migrate\.js$/);
    for (const service of ['api', 'worker']) expect(dependsOn(service)).toContain('migrate');
    expect(env('api').WORKFLOW_BUNDLE_PATH).toBe('/app/dist/workflow-bundle.js');
    const build = read('scripts/build.ts');
    expect(build, 'npm run build writes the workflow bundle to dist/workflow-bundle.js').toMatch(/workflow-bundle\.js/);
    expect(read('docker-compose.yml')).not.toMatch(/\btsx\b/);
  });

  it('migrates as the database\'s owner, a role of its own, and the api and worker connect as another', () => {
    const migrate = env('migrate');
    const owner = new URL(migrate.MIGRATION_DATABASE_URL);
    const runtime = new URL(migrate.DATABASE_URL);
    expect(migrate.DATABASE_URL).toBe(env('api').DATABASE_URL);
    expect(owner.hostname).toBe('postgresql');
    expect(owner.pathname).toBe(runtime.pathname);
    expect(owner.username).not.toBe(runtime.username);
    const role = roles().find((r) => r.name === decodeURIComponent(owner.username));
    expect(role, `the role ${owner.username} is created by the init script`).toBeDefined();
    expect(role!.line).toMatch(/nosuperuser nocreatedb nocreaterole/);
    expect(decodeURIComponent(owner.password)).toBe(env('postgresql')[role!.passwordVariable]);
    expect(initScript()).toContain(`create database ${owner.pathname.slice(1)} owner ${role!.name};`);
  });

  it('commits no secret: JWT_SECRET and POSTGRES_PASSWORD come from the operator wherever they are used', () => {
    const text = read('docker-compose.yml');
    for (const name of REQUIRED_SECRETS) {
      const uses = [...text.matchAll(new RegExp(`\\$\\{${name}([^}]*)\\}`, 'g'))];
      expect(uses.length, `${name} is used`).toBeGreaterThan(0);
      for (const [use, rest] of uses) expect(rest, `${use} must be \${${name}:?message}`).toMatch(/^:\?/);
    }
    expect(text).not.toContain('change-me-in-production');
    expect(text).not.toContain('development-only-secret');
  });

  it('publishes only the proxy to the world: the api not at all, Temporal UI and mail catcher on loopback', () => {
    for (const [name] of Object.entries(compose.services)) {
      for (const [published, target, host] of ports(name)) {
        if (name === 'proxy') continue;
        expect(host, `${name} publishes ${published}:${target} on every interface`).toBe('127.0.0.1');
      }
    }
    expect(ports('api'), 'the api is reached through the proxy only').toEqual([]);
    expect(ports('temporal'), 'the Temporal frontend is not published').toEqual([]);
    expect(ports('postgresql')).toEqual([]);
    expect(ports('proxy').map(([published, target]) => [published, target])).toEqual([[80, 80], [443, 443]]);
  });

  it('gives the api and the worker the same settings (namespace, task queue, database…)', () => {
    const api = env('api');
    const worker = env('worker');
    for (const name of productionEnvNames.filter((n) => !WORKER_ONLY.has(n))) expect(worker[name], name).toBe(api[name]);
  });

  /** The proxy's Caddyfile, as compose writes it into the container. */
  const caddyfile = () => {
    const mounted = (compose.services.proxy.configs ?? []).find((c) => typeof c === 'object' && c.target === '/etc/caddy/Caddyfile');
    expect(mounted, 'a Caddyfile mounted into the proxy').toBeDefined();
    return interpolate(compose.configs?.[(mounted as { source: string }).source]?.content ?? '');
  };

  it('serves PUBLIC_URL at the proxy, on a port it publishes, and forwards every request to the api', () => {
    const api = env('api');
    expect(api.HOST, 'the api listens on its container\'s interfaces, reached on the compose network').toBe('0.0.0.0');
    expect(compose.services.proxy.image).toMatch(/^caddy:/);
    const site = caddyfile();
    expect(site.split('\n').map((line) => line.trim()), 'the site block is PUBLIC_URL').toContain(`${api.PUBLIC_URL} {`);
    expect(site).toMatch(new RegExp(`reverse_proxy api:${api.PORT}\\b`));
    const publicUrl = new URL(api.PUBLIC_URL);
    const port = Number(publicUrl.port || (publicUrl.protocol === 'https:' ? 443 : 80));
    expect(ports('proxy').map(([published]) => published)).toContain(port);
    expect(dependsOn('proxy')).toContain('api');
  });

  it('has the api believe X-Forwarded-For from the proxy\'s fixed address only (never `true`)', () => {
    const network = compose.networks?.default?.ipam?.config?.[0]?.subnet ?? '';
    const proxyNetworks = compose.services.proxy.networks as Record<string, { ipv4_address?: string }>;
    const address = proxyNetworks?.default?.ipv4_address ?? '';
    expect(address, 'the proxy has a fixed address on the compose network').toMatch(/^\d+\.\d+\.\d+\.\d+$/);
    const [base, bits] = network.split('/');
    const toNumber = (ip: string) => ip.split('.').reduce((n, part) => n * 256 + Number(part), 0);
    const mask = 2 ** 32 - 2 ** (32 - Number(bits));
    expect((toNumber(address) & mask) >>> 0, `${address} lies in ${network}`).toBe((toNumber(base) & mask) >>> 0);
    for (const service of ['api', 'worker']) expect(env(service).TRUST_PROXY, service).toBe(address);
    // The proxy sets its own request id on every call (the api believes it from TRUST_PROXY's address).
    expect(caddyfile()).toMatch(/header_up X-Request-Id \{http\.request\.uuid\}/);
  });

  it('runs the Temporal server (not the deprecated auto-setup) on databases and a role of its own', () => {
    const temporal = compose.services.temporal;
    expect(temporal.image).toMatch(/^temporalio\/server:\d+\.\d+\.\d+$/);
    const e = env('temporal');
    const pg = env('postgresql');
    expect(e.DB).toMatch(/^postgres/);
    expect(e.POSTGRES_SEEDS).toBe('postgresql');
    expect(e.DB_PORT ?? '5432').toBe('5432');
    const role = roles().find((r) => r.name === e.POSTGRES_USER);
    expect(role, `the role ${e.POSTGRES_USER} is created by the init script`).toBeDefined();
    expect(role!.line).toMatch(/nosuperuser nocreatedb nocreaterole/);
    expect(e.POSTGRES_PWD).toBe(pg[role!.passwordVariable]);
    for (const db of [e.DBNAME, e.VISIBILITY_DBNAME]) expect(initScript()).toContain(`create database ${db} owner ${role!.name};`);
    expect(new URL(env('api').DATABASE_URL).username).not.toBe(e.POSTGRES_USER);
    // Its schemas are set up by Temporal's SQL tool from the admin-tools image of the same version, before it starts.
    const tools = compose.services['temporal-admin-tools'];
    expect(tools.image).toBe(temporal.image!.replace('temporalio/server', 'temporalio/admin-tools'));
    expect(commandText(tools)).toMatch(/temporal-sql-tool update-schema/);
    expect(env('temporal-admin-tools').SQL_USER).toBe(e.POSTGRES_USER);
    expect(dependsTransitively('temporal')).toContain('temporal-admin-tools');
    expect(dependsTransitively('temporal')).toContain('postgresql');
  });

  it('pins every image it pulls', () => {
    for (const [name, service] of Object.entries(compose.services)) {
      if (!service.image || service.build) continue;
      expect(service.image, `${name} image`).toMatch(/:v?\d+(\.\d+)*(-[a-z]+)?$/);
      expect(service.image, `${name} image`).not.toMatch(/:latest$/);
    }
  });

  it('enables update-with-start and registers the search attributes', () => {
    const dynamicConfigPath = env('temporal').DYNAMIC_CONFIG_FILE_PATH;
    expect(dynamicConfigPath).toBeTruthy();
    const mounted = (compose.services.temporal.configs ?? []).find((c) => typeof c === 'object' && c.target?.endsWith(path.basename(dynamicConfigPath)));
    expect(mounted, 'a compose config mounted at DYNAMIC_CONFIG_FILE_PATH').toBeDefined();
    const content = compose.configs?.[(mounted as { source: string }).source]?.content ?? '';
    const dynamic = parse(content) as Record<string, Array<{ value: unknown }>>;
    expect(dynamic['frontend.enableExecuteMultiOperation']?.[0]?.value).toBe(true);

    const setup = Object.entries(compose.services).find(([, s]) => /search-attribute create/.test(commandText(s)));
    expect(setup, 'a service that registers the search attributes').toBeDefined();
    for (const key of REQUEST_SEARCH_ATTRIBUTE_KEYS) expect(commandText(setup![1])).toContain(`${key.name}:${SEARCH_ATTRIBUTES[key.name]}`);
    for (const service of ['api', 'worker']) expect(dependsOn(service)).toContain(setup![0]);
  });

  it('has a Temporal Web UI pointing at the server, on the port TEMPORAL_UI_URL names', () => {
    const ui = compose.services['temporal-ui'];
    expect(ui.image).toMatch(/^temporalio\/ui(:|$)/);
    expect(env('temporal-ui').TEMPORAL_ADDRESS).toBe('temporal:7233');
    const mapping = ports('temporal-ui').find(([, target]) => target === 8080);
    expect(mapping, 'temporal-ui publishes container port 8080').toBeDefined();
    expect(Number(new URL(env('api').TEMPORAL_UI_URL).port)).toBe(mapping![0]);
    expect(env('temporal-ui').TEMPORAL_CORS_ORIGINS).toBe(env('api').PUBLIC_URL);
  });
});

describe('Dockerfile', () => {
  const stages = dockerfile.split(/^FROM /m).slice(1);

  it('builds on Node 24 (bookworm-slim) in several stages', () => {
    expect(stages.length).toBeGreaterThanOrEqual(2);
    const names: string[] = [];
    for (const stage of stages) {
      const [base, , name] = stage.split('\n')[0].trim().split(/\s+/);
      expect([...names, 'node:24-bookworm-slim'], `FROM ${base}`).toContain(base);
      if (name) names.push(name);
    }
    expect(stages.at(-1)).toMatch(/^node:24-bookworm-slim\b/);
  });

  it('builds with every dependency: npm ci, the UI, npm run build (server bundles and the workflow bundle)', () => {
    const build = stages.find((stage) => /npm run build\b/.test(stage));
    expect(build, 'a stage runs npm run build').toBeDefined();
    expect(build).toMatch(/RUN npm ci --no-audit/);
    expect(build).toMatch(/vite build --config ui\/vite\.config\.ts/);
  });

  it('runs compiled JavaScript with production dependencies only (no tsx at run time)', () => {
    const runtime = stages.at(-1)!;
    expect(runtime).toMatch(/^CMD \["node", ("--[a-z-]+(=[^"]+)?", )*"dist\/server\.js"\]$/m);
    expect(runtime).not.toMatch(/\btsx\b/);
    expect(runtime).toContain('NODE_ENV=production');
    // node_modules comes from a stage that installed with --omit=dev; the sources stay out.
    const nodeModules = /^COPY --from=(\S+) \S*\/app\/node_modules/m.exec(runtime);
    expect(nodeModules, 'the runtime copies node_modules from another stage').not.toBeNull();
    const depsStage = stages.find((stage) => stage.split('\n')[0].trim().endsWith(` AS ${nodeModules![1]}`));
    expect(depsStage).toMatch(/RUN npm ci --omit=dev\b/);
    expect(runtime).not.toMatch(/^COPY --from=\S+ \S*\/app \/app$/m);
    for (const needed of ['/app/dist', '/app/ui/dist']) expect(runtime).toContain(needed);
  });

  it('has Chromium and fonts in the runtime image (the worker renders PDFs)', () => {
    const runtime = stages.at(-1)!;
    for (const pkg of ['chromium-headless-shell', 'fonts-liberation', 'fonts-dejavu-core']) expect(runtime).toMatch(new RegExp(`apt-get install[^\\n]*(\\\\\\n[^\\n]*)*\\b${pkg}\\b`));
    expect(runtime).toContain('CHROMIUM_PATH=/usr/lib/chromium/chromium-headless-shell');
  });

  it('has a .dockerignore that keeps local state out of the image', () => {
    const ignore = read('.dockerignore').split('\n').map((l) => l.trim());
    for (const entry of ['node_modules', 'data', '.git', '.env']) expect(ignore).toContain(entry);
  });
});
