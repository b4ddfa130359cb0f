# Blackjack table bot. Build: docker build -t blackjack-bot .
# Run:   docker run -d --env-file .env -v blackjack-data:/data blackjack-bot
FROM python:3.11-slim-bookworm AS build
WORKDIR /src
# Pinned dependencies first, so code changes reuse this layer.
COPY requirements.lock ./
RUN pip install --no-cache-dir --prefix=/install --requirement requirements.lock
COPY pyproject.toml README.md ./
COPY bot ./bot
COPY cogs ./cogs
COPY db ./db
RUN pip install --no-cache-dir --prefix=/install --no-deps .

FROM python:3.11-slim-bookworm
# A fixed, unprivileged user that owns only the data volume.
RUN useradd --create-home --uid 10001 --shell /usr/sbin/nologin blackjack \
    && mkdir /data \
    && chown blackjack:blackjack /data
COPY --from=build /install /usr/local
USER 10001:10001
WORKDIR /home/blackjack
# No secrets here: DISCORD_TOKEN comes from the environment at run time.
ENV PYTHONUNBUFFERED=1 \
    PYTHONDONTWRITEBYTECODE=1 \
    DATABASE_URL=sqlite:////data/blackjack.sqlite3
VOLUME ["/data"]
HEALTHCHECK --interval=30s --timeout=10s --start-period=30s --retries=3 \
    CMD ["python", "-m", "bot", "check"]
STOPSIGNAL SIGTERM
CMD ["python", "-m", "bot"]
