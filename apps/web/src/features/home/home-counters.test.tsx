import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { jsonResponse } from '@/test/fixtures';
import { renderApp } from '@/test/render-app';

describe('home counters', () => {
  it('shows the public counters in the reader’s number format', async () => {
    renderApp({
      path: '/',
      routes: { 'GET /api/metrics': () => jsonResponse({ data: { data: { documents: 812345, students: 800001, schools: 3165, downloads: 42 } } }) },
    });
    const documents = await screen.findByTestId('counter-documents');
    expect(documents).toHaveTextContent('Diplômes publiés');
    expect(documents.textContent?.replace(/\s/g, '')).toContain('812345');
    expect(screen.getByTestId('counter-schools')).toHaveTextContent('Écoles');
  });

  it('keeps their place while they load, so that the page below does not move when they arrive', async () => {
    renderApp({ path: '/', routes: { 'GET /api/metrics': () => new Promise<Response>(() => undefined) } });
    await screen.findByRole('heading', { level: 1 });
    const section = screen.getByRole('region', { name: 'La plateforme en chiffres' });
    expect(section).toHaveAttribute('aria-busy', 'true');
    expect(section.querySelectorAll('dd')).toHaveLength(4);
    expect(screen.queryByTestId('counter-documents')).not.toBeInTheDocument();
  });

  it('shows nothing when the counters cannot be had', async () => {
    renderApp({ path: '/', routes: { 'GET /api/metrics': () => new Response('{}', { status: 500 }) } });
    await screen.findByRole('heading', { level: 1 });
    expect(screen.queryByTestId('counter-documents')).not.toBeInTheDocument();
  });
});
