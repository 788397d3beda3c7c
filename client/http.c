/*
 * http.c: serving the HTTP of General Game Playing (http.h).
 *
 * Every read waits with poll() against one deadline for the whole request,
 * so a peer that sends half a request and falls silent, or trickles bytes,
 * holds its connection's thread for that long at most.  Headers are capped
 * at HEADER_MAX bytes and the body at the caller's limit, which is checked
 * against Content-Length before any of the body is read.
 */
#include "http.h"

#include <errno.h>
#include <netdb.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "report.h"
#include "util.h"

#define HEADER_MAX 65536
#define LISTEN_BACKLOG 64

static int
listen_on(const struct addrinfo *ai)
{
	int			fd = socket(ai->ai_family, ai->ai_socktype, ai->ai_protocol);
	int			on = 1;

	if (fd < 0)
		return -1;
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, sizeof on);
	/* IPv6 sockets take only IPv6: the IPv4 address of the same port is bound on its own */
	if (ai->ai_family == AF_INET6)
		setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &on, sizeof on);
	if (bind(fd, ai->ai_addr, ai->ai_addrlen) != 0 || listen(fd, LISTEN_BACKLOG) != 0)
	{
		int			saved = errno;

		close(fd);
		errno = saved;
		return -1;
	}
	return fd;
}

int
http_listen(const char *addr, int port, int *fds, int max)
{
	const char *const loopback[] = {"127.0.0.1", "::1"};
	const char *const *hosts = addr ? &addr : loopback;
	int			nhosts = addr ? 1 : 2;
	int			n = 0;
	char		service[16];

	snprintf(service, sizeof service, "%d", port);
	for (int h = 0; h < nhosts; h++)
	{
		struct addrinfo hints = {0};
		struct addrinfo *found;
		int			rc;

		hints.ai_family = AF_UNSPEC;
		hints.ai_socktype = SOCK_STREAM;
		hints.ai_flags = AI_PASSIVE;
		rc = getaddrinfo(hosts[h], service, &hints, &found);
		if (rc != 0)
		{
			/* a machine without IPv6 has no ::1: the other loopback serves */
			if (!addr)
				continue;
			report("cannot listen on %s: %s", hosts[h], gai_strerror(rc));
			return -1;
		}
		for (struct addrinfo *ai = found; ai && n < max; ai = ai->ai_next)
		{
			int			fd = listen_on(ai);

			if (fd >= 0)
				fds[n++] = fd;
			else if (addr || ai->ai_family == AF_INET)
			{
				report("cannot listen on %s port %d: %s", hosts[h], port, strerror(errno));
				freeaddrinfo(found);
				while (n > 0)
					close(fds[--n]);
				return -1;
			}
		}
		freeaddrinfo(found);
	}
	if (n == 0)
		report("cannot listen on port %d: no address", port);
	return n > 0 ? n : -1;
}

static double
now_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Reads what is there into buf[*len, cap); false when the peer closed, failed or the deadline passed. */
static bool
read_some(int fd, char *buf, size_t cap, size_t *len, double deadline)
{
	for (;;)
	{
		struct pollfd p = {fd, POLLIN, 0};
		double		left = deadline - now_seconds();
		ssize_t		got;
		int			rc;

		if (left <= 0)
			return false;
		rc = poll(&p, 1, (int) (left * 1000) + 1);
		if (rc < 0 && errno == EINTR)
			continue;
		if (rc <= 0)
			return false;
		got = recv(fd, buf + *len, cap - *len, 0);
		if (got < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (got <= 0)
			return false;
		*len += got;
		return true;
	}
}

/* The end of the header block (after its blank line) in buf[0, len), or 0. */
static size_t
header_end(const char *buf, size_t len)
{
	for (size_t i = 0; i + 1 < len; i++)
	{
		if (buf[i] == '\n' && buf[i + 1] == '\n')
			return i + 2;
		if (i + 3 < len && memcmp(buf + i, "\r\n\r\n", 4) == 0)
			return i + 4;
	}
	return 0;
}

/* The value of header name in the header block, or NULL; lines end with \n or \r\n. */
static const char *
header_value(const char *headers, const char *name, size_t *vlen)
{
	size_t		nlen = strlen(name);

	for (const char *line = strchr(headers, '\n'); line; line = strchr(line, '\n'))
	{
		const char *end;

		line++;
		if (strncasecmp(line, name, nlen) != 0 || line[nlen] != ':')
			continue;
		line += nlen + 1;
		while (*line == ' ' || *line == '\t')
			line++;
		end = line;
		while (*end && *end != '\r' && *end != '\n')
			end++;
		*vlen = end - line;
		return line;
	}
	return NULL;
}

int
http_read_request(int fd, HttpRequest *req, size_t max_body, double seconds, char *error, size_t errlen)
{
	double		deadline = now_seconds() + seconds;
	char	   *buf = xmalloc(HEADER_MAX + 1);
	size_t		len = 0;
	size_t		end;
	const char *value;
	size_t		vlen;
	char	   *stop;
	unsigned long long length;
	int			status = -1;

	memset(req, 0, sizeof *req);
	while ((end = header_end(buf, len)) == 0)
	{
		if (len == HEADER_MAX)
		{
			snprintf(error, errlen, "headers longer than %d bytes", HEADER_MAX);
			status = 400;
			goto done;
		}
		if (!read_some(fd, buf, HEADER_MAX, &len, deadline))
		{
			snprintf(error, errlen, "the connection closed or fell silent before the headers ended");
			goto done;
		}
	}
	buf[len] = '\0';
	if (sscanf(buf, "%15s", req->method) != 1 || !strstr(buf, " HTTP/1."))
	{
		snprintf(error, errlen, "not an HTTP/1.x request line");
		status = 400;
		goto done;
	}
	/* the header block, terminated, for header_value */
	buf[end - 1] = '\0';
	if (header_value(buf, "Transfer-Encoding", &vlen))
	{
		snprintf(error, errlen, "a body with Transfer-Encoding (send Content-Length)");
		status = 501;
		goto done;
	}
	value = header_value(buf, "Content-Length", &vlen);
	if (!value)
	{
		/* requests other than POST carry no body */
		if (strcmp(req->method, "POST") != 0)
		{
			req->body = xstrdup("");
			status = 0;
			goto done;
		}
		snprintf(error, errlen, "a POST without Content-Length");
		status = 411;
		goto done;
	}
	errno = 0;
	length = strtoull(value, &stop, 10);
	if (errno != 0 || stop == value || (size_t) (stop - value) != vlen)
	{
		snprintf(error, errlen, "Content-Length \"%.*s\" is no number", (int) (vlen > 40 ? 40 : vlen), value);
		status = 400;
		goto done;
	}
	if (length > max_body)
	{
		snprintf(error, errlen, "a body of %llu bytes, more than the %zu taken", length, max_body);
		status = 413;
		goto done;
	}
	req->body = xmalloc(length + 1);
	req->body_len = len - end < length ? len - end : length;
	memcpy(req->body, buf + end, req->body_len);
	while (req->body_len < length)
		if (!read_some(fd, req->body, length, &req->body_len, deadline))
		{
			snprintf(error, errlen, "the connection closed or fell silent after %zu of %llu body bytes",
					 req->body_len, length);
			http_request_free(req);
			goto done;
		}
	req->body[req->body_len] = '\0';
	status = 0;
done:
	free(buf);
	return status;
}

void
http_request_free(HttpRequest *req)
{
	free(req->body);
	req->body = NULL;
	req->body_len = 0;
}

static const char *
status_text(int status)
{
	switch (status)
	{
		case 200:
			return "OK";
		case 400:
			return "Bad Request";
		case 404:
			return "Not Found";
		case 405:
			return "Method Not Allowed";
		case 411:
			return "Length Required";
		case 413:
			return "Payload Too Large";
		case 501:
			return "Not Implemented";
		case 503:
			return "Service Unavailable";
		default:
			return "Error";
	}
}

bool
http_reply(int fd, int status, const char *body)
{
	StrBuf		out;
	size_t		sent = 0;
	bool		ok = true;

	sb_init(&out);
	sb_printf(&out, "HTTP/1.0 %d %s\r\nContent-Type: text/acl\r\nContent-Length: %zu\r\n"
			  "Access-Control-Allow-Origin: *\r\nAccess-Control-Allow-Methods: POST, GET, OPTIONS\r\n"
			  "Access-Control-Allow-Headers: Content-Type\r\nAccess-Control-Max-Age: 86400\r\n"
			  "Connection: close\r\n\r\n%s",
			  status, status_text(status), strlen(body), body);
	while (sent < out.len)
	{
		ssize_t		n = send(fd, out.data + sent, out.len - sent, MSG_NOSIGNAL);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
		{
			ok = false;
			break;
		}
		sent += n;
	}
	sb_free(&out);
	return ok;
}
