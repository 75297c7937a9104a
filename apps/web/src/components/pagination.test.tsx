import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { Pagination } from '@/components/pagination';

const meta = (current_page: number, last_page: number, total: number) => ({ current_page, last_page, per_page: 20, total });

describe('Pagination', () => {
  it('says where the reader is and moves one page back or forward', async () => {
    const onPage = vi.fn<(page: number) => void>();
    render(<Pagination meta={meta(2, 3, 45)} onPage={onPage} label="Pages des candidats" />);
    const nav = screen.getByRole('navigation', { name: 'Pages des candidats' });
    expect(nav).toHaveTextContent('Page 2 sur 3 · 45 résultat(s)');
    await userEvent.click(screen.getByRole('button', { name: 'Précédent' }));
    await userEvent.click(screen.getByRole('button', { name: 'Suivant' }));
    expect(onPage.mock.calls).toEqual([[1], [3]]);
  });

  it('cannot go before the first page or past the last, and an empty list is page 1 of 1', () => {
    const { rerender } = render(<Pagination meta={meta(1, 0, 0)} onPage={() => undefined} label="Pages" />);
    expect(screen.getByRole('navigation')).toHaveTextContent('Page 1 sur 1 · 0 résultat(s)');
    expect(screen.getByRole('button', { name: 'Précédent' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Suivant' })).toBeDisabled();
    rerender(<Pagination meta={meta(3, 3, 45)} onPage={() => undefined} label="Pages" />);
    expect(screen.getByRole('button', { name: 'Précédent' })).toBeEnabled();
    expect(screen.getByRole('button', { name: 'Suivant' })).toBeDisabled();
  });

  it('shows nothing before the list has come', () => {
    const { container } = render(<Pagination meta={undefined} onPage={() => undefined} label="Pages" />);
    expect(container).toBeEmptyDOMElement();
  });
});
