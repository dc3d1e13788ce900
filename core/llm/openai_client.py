"""The OpenAI-compatible provider, and the translation of SDK errors into ``ModelError``."""

from __future__ import annotations

import asyncio
import dataclasses
import importlib
import json
from types import ModuleType
from typing import Any
from urllib.parse import urlsplit

import openai
from openai.types.chat import ChatCompletion

from core.llm.base import NO_OPTIONS, CallOptions, Capabilities, DeltaSink, Message, ModelError, \
    Reply, ToolCall
from core.llm.openai_stream import ReplyAssembler, usage_of
from core.secrets import redact, remember

RETRY_DELAY_S = 0.5  # the SDK's first retry delay


def http_module() -> ModuleType:
    """The HTTP library the installed openai SDK is built on (httpx, or httpx2 in SDK 3.x)."""
    for name in ("httpx2", "httpx"):
        try:
            return importlib.import_module(name)
        except ImportError:
            continue
    raise ImportError("the openai SDK's HTTP library is missing")


def sdk_error(status: int, message: str, headers: dict[str, str] | None = None) -> Exception:
    """The exception the SDK raises for an HTTP ``status`` (0 = connection refused)."""
    http = http_module()
    request = http.Request("POST", "http://scripted.invalid/v1/chat/completions")
    if status == 0:
        return openai.APIConnectionError(message=message, request=request)
    if status == 408:
        return openai.APITimeoutError(request=request)
    response = http.Response(status, request=request, headers=headers or {},
                             json={"error": {"message": message}})
    classes: dict[int, type[openai.APIStatusError]] = {
        400: openai.BadRequestError, 401: openai.AuthenticationError,
        403: openai.PermissionDeniedError, 404: openai.NotFoundError,
        409: openai.ConflictError, 422: openai.UnprocessableEntityError,
        429: openai.RateLimitError,
    }
    cls = classes.get(status, openai.InternalServerError if status >= 500 else openai.APIStatusError)
    return cls(message, response=response, body={"error": {"message": message}})


def translate_error(exc: Exception, where: str = "") -> ModelError:
    """A ``ModelError`` a person understands, for any exception the SDK raises."""
    place = f" at {where}" if where else ""
    if isinstance(exc, openai.APITimeoutError):
        return ModelError(f"the model did not answer in time{place} (timeout)", status=408,
                          retryable=True)
    if isinstance(exc, openai.APIConnectionError):
        cause = exc.__cause__ or exc
        if not _broke_off(cause):
            return ModelError(redact(f"the model could not be reached{place}: {cause}"), status=0,
                              retryable=True, unreachable=True, raw=redact(str(cause)))
        detail = str(cause) or type(cause).__name__
        return ModelError(redact(f"the connection to the model broke off before its reply was "
                                 f"complete{place}: {detail}"), retryable=True)
    if isinstance(exc, openai.APIStatusError):
        detail = _status_detail(exc)
        status = exc.status_code
        words = {401: "the endpoint refused the API key", 403: "access was denied",
                 404: "the model or URL was not found", 429: "the endpoint is rate limiting",
                 400: "the endpoint rejected the request",
                 408: "the endpoint gave up waiting for the request",
                 }.get(status, "the model server failed")
        return ModelError(redact(f"{words} (HTTP {status}){place}: {detail}"), status=status,
                          retryable=status in (408, 409, 429) or status >= 500,
                          raw=redact(detail))
    return ModelError(redact(f"the endpoint sent a reply that could not be read{place}: "
                             f"{type(exc).__name__}: {exc}"), status=None)


def _broke_off(cause: BaseException) -> bool:
    """Whether a connection error happened after the endpoint was reached (a reset or a cut
    reply) rather than while connecting (refused, unknown host)."""
    http = http_module()
    return isinstance(cause, http.TransportError) and not isinstance(
        cause, (http.ConnectError, http.TimeoutException, http.ProxyError,
                http.UnsupportedProtocol))


def _status_detail(exc: openai.APIStatusError) -> str:
    body = exc.body
    if isinstance(body, dict):
        inner = body.get("error", body)
        if isinstance(inner, dict) and isinstance(inner.get("message"), str):
            return inner["message"][:500]
        if isinstance(inner, str):
            return inner[:500]
    return str(exc.message)[:500]


class OpenAIModel:
    """Any OpenAI-compatible chat-completions endpoint, through the official SDK.

    A call with ``on_delta`` is streamed (``stream=True``, usage included) while the endpoint
    streams: an endpoint that answers a streamed request with a plain JSON body, or refuses
    streaming, is asked without streaming from then on (``capabilities.streams`` turns
    False), and that reply is still used. Cancelling the call closes the response at once.
    """

    provider = "openai"

    def __init__(self, base_url: str, model: str, api_key: str, timeout_s: float = 120.0,
                 max_retries: int = 2, forcing: str | None = "named",
                 temperature: float | None = None) -> None:
        """``forcing`` None: not known, probe the endpoint before the first run.
        ``temperature``: sent with every call that does not name its own (None: the
        endpoint's default, which for llama-server is 0.8)."""
        remember(api_key)
        self._base_url = base_url
        self.capabilities = Capabilities(forcing=forcing, endpoint=base_url, streams=True)
        self._token_limit = "max_tokens"
        self._temperature = temperature
        self._sends_temperature = True
        self._model = model or "gpt-4o-mini"
        self._client = openai.AsyncOpenAI(base_url=base_url or None, api_key=api_key or "none",
                                          timeout=timeout_s, max_retries=max_retries)

    @property
    def name(self) -> str:
        return self._model

    @property
    def host(self) -> str:
        """Where the model is served: the base URL's host (and port)."""
        return urlsplit(self._base_url).netloc or "api.openai.com"

    async def complete(self, messages: list[Message], tools: list[dict[str, Any]],
                       tool_choice: dict[str, Any] | str | None,
                       options: CallOptions = NO_OPTIONS) -> Reply:
        kwargs: dict[str, Any] = {"model": self._model, "messages": messages}
        if tools:
            kwargs["tools"] = tools
            if tool_choice is not None:
                kwargs["tool_choice"] = tool_choice
        if options.max_tokens is not None:
            kwargs[self._token_limit] = options.max_tokens
        temperature = self._temperature if options.temperature is None else options.temperature
        if temperature is not None and self._sends_temperature:
            kwargs["temperature"] = temperature
        if options.response_format is not None:
            kwargs["response_format"] = options.response_format
        if options.on_delta is not None and self.capabilities.streams:
            reply = await self._streamed(kwargs, messages, tools, options.on_delta)
            if reply is not None:
                return reply
        try:
            response = await self._create(kwargs)
        except openai.OpenAIError as exc:
            raise translate_error(exc, self._base_url) from None
        except ValueError as exc:  # undecodable body
            raise translate_error(exc, self._base_url) from None
        return _reply(response, messages, tools)

    async def _streamed(self, kwargs: dict[str, Any], messages: list[Message],
                        tools: list[dict[str, Any]], sink: DeltaSink) -> Reply | None:
        """The reply of a streamed request; None when the endpoint refused to stream (the
        caller then asks without streaming). A stream that breaks off before any piece of
        the reply arrived is asked again as the SDK would (it cannot retry a stream it has
        already returned); one that broke off later fails the call."""
        retries = max(int(self._client.max_retries), 0)
        for attempt in range(retries + 1):
            assembler = ReplyAssembler(sink)
            try:
                return await self._stream_once(kwargs, messages, tools, assembler)
            except _BrokeOff as broke:
                if assembler.pieces or attempt == retries:
                    raise translate_error(broke.error, self._base_url) from None
            await asyncio.sleep(RETRY_DELAY_S * 2 ** attempt)
        return None

    async def _stream_once(self, kwargs: dict[str, Any], messages: list[Message],
                           tools: list[dict[str, Any]], assembler: ReplyAssembler) -> Reply | None:
        create = self._client.chat.completions.with_streaming_response.create
        try:
            async with create(**kwargs, stream=True,
                              stream_options={"include_usage": True}) as response:
                try:
                    return await self._read(response, assembler, messages, tools)
                except (openai.APIConnectionError, http_module().TransportError) as exc:
                    raise _BrokeOff(_sdk_transport_error(exc)) from None
        except openai.APIStatusError as exc:
            if _refuses_streaming(exc):
                self._stop_streaming()
                return None
            if self._adapted(kwargs, exc):
                return await self._stream_once(kwargs, messages, tools, assembler)
            raise translate_error(exc, self._base_url) from None
        except openai.OpenAIError as exc:
            raise translate_error(exc, self._base_url) from None
        except ValueError as exc:  # an unreadable body or event
            raise translate_error(exc, self._base_url) from None

    async def _read(self, response: Any, assembler: ReplyAssembler, messages: list[Message],
                    tools: list[dict[str, Any]]) -> Reply:
        if "text/event-stream" not in response.headers.get("content-type", ""):
            self._stop_streaming()  # it answers streamed requests whole
            body = json.loads(await response.read())
            if not isinstance(body, dict):
                raise ValueError(f"expected a JSON object, got {type(body).__name__}")
            return _reply(ChatCompletion.construct(**body), messages, tools)
        async for chunk in await response.parse():
            assembler.add(chunk)
        return assembler.reply(messages, tools)

    def _stop_streaming(self) -> None:
        self.capabilities = dataclasses.replace(self.capabilities, streams=False)

    async def _create(self, kwargs: dict[str, Any]) -> Any:
        """The request; sent again, changed as ``_adapted`` says, while the endpoint refuses
        a parameter this model does not take."""
        while True:
            try:
                return await self._client.chat.completions.create(**kwargs)
            except (openai.BadRequestError, openai.UnprocessableEntityError) as exc:
                if not self._adapted(kwargs, exc):
                    raise

    def _adapted(self, kwargs: dict[str, Any], exc: openai.APIStatusError) -> bool:
        """Whether ``exc`` refuses a parameter this client can do without; if so ``kwargs``
        is changed, for this and every later call: ``max_tokens`` becomes
        ``max_completion_tokens`` where that is asked for, and a ``temperature`` the model
        does not take is no longer sent (OpenAI's reasoning models refuse both; Hugging Face's
        text-generation-inference answers 422 to a temperature of 0)."""
        if exc.status_code not in (400, 422):
            return False
        message = str(exc.message)
        if "max_tokens" in kwargs and "max_completion_tokens" in message:
            self._token_limit = "max_completion_tokens"
            kwargs["max_completion_tokens"] = kwargs.pop("max_tokens")
            return True
        if "temperature" in kwargs and "temperature" in message:
            self._sends_temperature = False
            del kwargs["temperature"]
            return True
        return False

    async def list_models(self) -> list[str]:
        """The names of the models the endpoint lists (``GET /models``), sorted; raises
        ``ModelError`` when it does not answer with a list."""
        try:
            names = [model.id async for model in self._client.models.list()]
        except openai.OpenAIError as exc:
            raise translate_error(exc, self._base_url) from None
        except (ValueError, TypeError, AttributeError) as exc:
            raise ModelError(redact(f"the endpoint's model list could not be read: {exc}"),
                             status=None) from None
        return sorted({name for name in names if isinstance(name, str) and name})

    async def aclose(self) -> None:
        await self._client.close()


def _reply(response: Any, messages: list[Message], tools: list[dict[str, Any]]) -> Reply:
    """The ``Reply`` of a whole (not streamed) ``chat.completion``."""
    if not getattr(response, "choices", None):
        raise ModelError("the endpoint replied without any choices")
    choice = response.choices[0]
    message = choice.message
    calls = tuple(
        ToolCall(id=c.id or f"call_{i}", name=c.function.name or "",
                 arguments=c.function.arguments or "")
        for i, c in enumerate(message.tool_calls or ()) if getattr(c, "function", None))
    usage = usage_of(getattr(response, "usage", None), message.content, calls, messages, tools)
    return Reply(text=message.content, tool_calls=calls, usage=usage,
                 finish_reason=choice.finish_reason or "")


def _refuses_streaming(exc: openai.APIStatusError) -> bool:
    """An endpoint that does not implement streaming says so with 501, or 400/422 naming it."""
    if exc.status_code == 501:
        return True
    return exc.status_code in (400, 422) and "stream" in _status_detail(exc).lower()


class _BrokeOff(Exception):
    """The response failed while its body was read (``error``: as the SDK says it)."""

    def __init__(self, error: openai.OpenAIError) -> None:
        super().__init__(str(error))
        self.error = error


def _sdk_transport_error(exc: Exception) -> openai.OpenAIError:
    """The SDK's error for a transport failure while a body was read (SDKs before 3.x leave
    those unwrapped)."""
    if isinstance(exc, openai.OpenAIError):
        return exc
    http = http_module()
    request = http.Request("POST", "http://stream.invalid/v1/chat/completions")
    if isinstance(exc, http.TimeoutException):
        return openai.APITimeoutError(request=request)
    error = openai.APIConnectionError(message=str(exc), request=request)
    error.__cause__ = exc
    return error
