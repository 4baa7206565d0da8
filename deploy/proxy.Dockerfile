# The reverse proxy: Debian's own caddy package, configured by deploy/Caddyfile (mounted by
# docker-compose.yml) and the environment.
FROM debian:bookworm-slim
RUN apt-get update \
    && apt-get install -y --no-install-recommends caddy curl ca-certificates \
    && rm -rf /var/lib/apt/lists/*
ENV XDG_DATA_HOME=/var/lib/caddy XDG_CONFIG_HOME=/var/lib/caddy/config
EXPOSE 80 443
CMD ["caddy", "run", "--config", "/etc/caddy/Caddyfile", "--adapter", "caddyfile"]
