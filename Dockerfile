# syntax=docker/dockerfile:1
# a2a-sim: build the TypeScript once, ship only the compiled output and production dependencies.

FROM node:20-alpine AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
# scripts/bundle-cli.ts bundles the CLI into dist/cli/main.js: the start command loads one file.
COPY scripts ./scripts
RUN npm run build

FROM node:20-alpine AS runtime
ENV NODE_ENV=production \
    A2A_SIM_HOST=0.0.0.0 \
    A2A_SIM_PORT=41241
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force
COPY --from=build /app/dist ./dist
COPY scenarios ./scenarios
# The dashboard's browser files are served as they are, from src/ (tsc does not copy them).
COPY src/admin/dashboard ./src/admin/dashboard
USER node
EXPOSE 41241
HEALTHCHECK --interval=10s --timeout=3s --start-period=5s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:'+(process.env.A2A_SIM_PORT||41241)+'/_sim/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
# The same command the CLI test runs: every option comes from A2A_SIM_* variables or extra arguments.
ENTRYPOINT ["node", "dist/cli/main.js"]
CMD ["serve"]
